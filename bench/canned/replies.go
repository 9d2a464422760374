package canned

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

// Tool names and sizes the workloads use.
const (
	EchoTool  = "echo"
	BigTool   = "big"
	ToolCount = 1000
	// EchoText is what the echo tool answers; clients check it.
	EchoText = "hello, world"
)

// ServerVersion is the protocol revision answered when the client asks for
// one the server does not know.
const ServerVersion = "2025-11-25"

var knownVersions = map[string]bool{
	"2025-11-25": true, "2025-06-18": true, "2025-03-26": true, "2024-11-05": true,
}

// request is what the server reads of a message.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name            string `json:"name"`
		ProtocolVersion string `json:"protocolVersion"`
		Arguments       struct {
			Size   int    `json:"size"`
			Count  int    `json:"count"`
			GapUS  int    `json:"gap_us"`
			Method string `json:"method"`
		} `json:"arguments"`
	} `json:"params"`
}

// Responder builds replies. It is safe for concurrent use.
type Responder struct {
	echoResult  []byte
	listResult  []byte
	emptyResult []byte

	mu  sync.Mutex
	big map[int][]byte // tools/call big results by size

	stats notifyStats
}

// NewResponder pre-encodes the fixed replies.
func NewResponder() *Responder {
	r := &Responder{
		echoResult:  []byte(`{"content":[{"type":"text","text":"` + EchoText + `"}]}`),
		emptyResult: []byte(`{}`),
		big:         make(map[int][]byte),
	}
	r.listResult = ToolsListResult()
	return r
}

// ToolsListResult is the tools/list result: ToolCount tools with a
// description and an input schema each, as real servers send them.
func ToolsListResult() []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := range ToolCount {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%04d","description":"Tool %d of the benchmark's list: reads a file below the given path and reports what it finds, optionally recursing.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where to start"},"recursive":{"type":"boolean","description":"descend into directories"},"limit":{"type":"integer","minimum":1}},"required":["path"]}}`, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BigText returns a text of exactly size bytes as it appears inside a JSON
// string: printable lines of prose separated by \n escapes (each escape
// counts as the two bytes on the wire, so the decoded text is a little
// shorter than size).
func BigText(size int) []byte {
	const line = `The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n`
	b := make([]byte, 0, size)
	for len(b)+len(line) <= size {
		b = append(b, line...)
	}
	for len(b) < size {
		b = append(b, 'x')
	}
	return b
}

func (r *Responder) bigResult(size int) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.big[size]; ok {
		return b
	}
	var b []byte
	b = append(b, `{"content":[{"type":"text","text":"`...)
	b = append(b, BigText(size)...)
	b = append(b, `"}]}`...)
	// Keep at most a few sizes: the survival probe walks up to 256 MiB.
	if len(r.big) >= 2 {
		clear(r.big)
	}
	r.big[size] = b
	return b
}

// Reply is the answer to one message: Result or Error (pre-encoded JSON)
// for a request; NoReply for a notification or a response.
type Reply struct {
	ID      json.RawMessage
	Result  []byte
	Error   []byte
	NoReply bool
	// Initialize is set when the message was initialize.
	Initialize bool
	// notify is set for a notify call: its notifications go first.
	notify *notifyOrder
}

// Answer decides the reply to one message.
func (r *Responder) Answer(msg []byte) Reply {
	var req request
	if err := json.Unmarshal(msg, &req); err != nil {
		return Reply{ID: json.RawMessage("null"), Error: errorObject(-32700, "parse error")}
	}
	if len(req.ID) == 0 || req.Method == "" {
		return Reply{NoReply: true} // a notification or a response
	}
	rep := Reply{ID: req.ID}
	switch req.Method {
	case "initialize":
		v := req.Params.ProtocolVersion
		if !knownVersions[v] {
			v = ServerVersion
		}
		rep.Initialize = true
		rep.Result = []byte(`{"protocolVersion":"` + v + `","capabilities":{"tools":{}},"serverInfo":{"name":"canned","version":"1.0.0"}}`)
	case "ping":
		rep.Result = r.emptyResult
	case "tools/list":
		r.countList()
		rep.Result = r.listResult
	case "tools/call":
		switch req.Params.Name {
		case EchoTool:
			rep.Result = r.echoResult
		case BigTool:
			size := req.Params.Arguments.Size
			if size <= 0 || size > 1<<30 {
				rep.Error = errorObject(-32602, "big: arguments.size must be between 1 and 1 GiB")
			} else {
				rep.Result = r.bigResult(size)
			}
		case NotifyTool:
			a := req.Params.Arguments
			o, err := notifyOrderFor(a.Count, a.Size, a.GapUS, a.Method)
			if err != nil {
				rep.Error = errorObject(-32602, err.Error())
			} else {
				rep.notify = o
				rep.Result = []byte(`{"content":[{"type":"text","text":"sent"}]}`)
			}
		case StatsTool:
			rep.Result = r.statsResult()
		default:
			rep.Error = errorObject(-32602, "unknown tool "+strconv.Quote(req.Params.Name))
		}
	default:
		rep.Error = errorObject(-32601, "method not found: "+req.Method)
	}
	return rep
}

func errorObject(code int, msg string) []byte {
	m, _ := json.Marshal(msg)
	return []byte(`{"code":` + strconv.Itoa(code) + `,"message":` + string(m) + `}`)
}

// AppendFrame appends the reply's JSON-RPC message (without a newline).
func (rep *Reply) AppendFrame(b []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, rep.ID...)
	if rep.Error != nil {
		b = append(b, `,"error":`...)
		b = append(b, rep.Error...)
	} else {
		b = append(b, `,"result":`...)
		b = append(b, rep.Result...)
	}
	return append(b, '}')
}

// parts returns the frame as head + body + "}", so that a large result is
// written without being copied into a frame first.
func (rep *Reply) parts() (head, body []byte) {
	head = make([]byte, 0, 64)
	head = append(head, `{"jsonrpc":"2.0","id":`...)
	head = append(head, rep.ID...)
	if rep.Error != nil {
		return append(head, `,"error":`...), rep.Error
	}
	return append(head, `,"result":`...), rep.Result
}

// frameLen is the length of the frame.
func (rep *Reply) frameLen() int {
	head, body := rep.parts()
	return len(head) + len(body) + 1
}

// writeParts writes the frame without building it in memory first, which
// matters for results of hundreds of MiB.
func (rep *Reply) writeParts(w interface{ Write([]byte) (int, error) }) error {
	head, body := rep.parts()
	if _, err := w.Write(head); err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	_, err := w.Write([]byte{'}'})
	return err
}
