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

// ModernVersion is the stateless revision that NewModernResponder speaks.
const ModernVersion = "2026-07-28"

// Keys of the modern era in _meta.
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaServerInfo      = "io.modelcontextprotocol/serverInfo"
)

// Error codes of the modern era.
const (
	codeHeaderMismatch     = -32020
	codeUnsupportedVersion = -32022
)

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
		// Meta is what the modern era (2026-07-28) puts in every
		// request; a legacy request has none, which costs no decoding.
		Meta struct {
			ProtocolVersion    string          `json:"io.modelcontextprotocol/protocolVersion"`
			ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	} `json:"params"`
}

// Responder builds replies. It is safe for concurrent use.
type Responder struct {
	// modern: see NewModernResponder.
	modern bool
	// resultEnd closes every result object: "}" in the legacy era; in
	// the modern era the resultType and serverInfo every result carries
	// come first.
	resultEnd string

	echoResult []byte
	// list is the tools/list result, built on first use: it takes the
	// server a millisecond or two, which every spawn would otherwise add
	// to the connect figures of clients that never list.
	list        func() []byte
	emptyResult []byte
	// discoverResult answers server/discover (modern era only).
	discoverResult []byte

	mu  sync.Mutex
	big map[int][]byte // tools/call big results by size

	stats notifyStats
}

// NewResponder is a server of the legacy era (up to 2025-11-25), as every
// server of 2025 is: initialize opens the session, and server/discover is
// refused with -32601. It pre-encodes the fixed replies.
func NewResponder() *Responder {
	return newResponder(false)
}

// NewModernResponder is a server of the stateless era only (2026-07-28):
// server/discover answers {supportedVersions, capabilities}; initialize
// is refused with -32022 naming the versions it speaks; every other
// request must carry the protocol version and the client capabilities in
// _meta (else -32602, or -32022 for a version it does not speak); every
// result carries resultType and the server's info in _meta, as the
// go-sdk's server sends them. A client that falls back to the legacy era
// gets errors, so a figure measured against it is a modern one.
func NewModernResponder() *Responder {
	return newResponder(true)
}

func newResponder(modern bool) *Responder {
	r := &Responder{modern: modern, resultEnd: "}", big: make(map[int][]byte)}
	if modern {
		r.resultEnd = `,"resultType":"complete","_meta":{"` + metaServerInfo + `":{"name":"canned","version":"1.0.0"}}}`
	}
	r.echoResult = r.result(`{"content":[{"type":"text","text":"` + EchoText + `"}]}`)
	r.emptyResult = []byte(`{}`)
	r.discoverResult = r.result(`{"supportedVersions":["` + ModernVersion + `"],"capabilities":{"tools":{}}}`)
	r.list = sync.OnceValue(func() []byte { return r.result(string(ToolsListResult())) })
	return r
}

// result ends the result object obj (whose last byte is its "}") as the
// responder's era wants.
func (r *Responder) result(obj string) []byte {
	return []byte(obj[:len(obj)-1] + r.resultEnd)
}

// Modern reports whether the responder serves the stateless era.
func (r *Responder) Modern() bool { return r.modern }

// ToolsListResult is the tools/list result: ToolCount tools with a
// description and an input schema each, as real servers send them. The
// last two are the tools the workloads call, echo and big, so that a
// gateway in front of the server (which routes only the tools it was
// listed) can call them too.
func ToolsListResult() []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := range ToolCount {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i {
		case ToolCount - 2:
			b.WriteString(`{"name":"` + EchoTool + `","description":"Answers with the message it is given, as one text block; the benchmark's round trip.","inputSchema":{"type":"object","properties":{"message":{"type":"string","description":"what to echo"}},"required":["message"]}}`)
			continue
		case ToolCount - 1:
			b.WriteString(`{"name":"` + BigTool + `","description":"Answers with one text block of the given size in bytes; the benchmark's large result.","inputSchema":{"type":"object","properties":{"size":{"type":"integer","minimum":1,"description":"bytes of text"}},"required":["size"]}}`)
			continue
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
	b = append(b, `"}]`...)
	b = append(b, r.resultEnd...)
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
	// code is Error's code; method, name and version are the request's
	// method, params.name and _meta protocol version, which the modern
	// era's HTTP headers must repeat.
	code                  int
	method, name, version string
	// notify is set for a notify call: its notifications go first.
	notify *notifyOrder
}

// Answer decides the reply to one message.
func (r *Responder) Answer(msg []byte) Reply {
	var req request
	if err := json.Unmarshal(msg, &req); err != nil {
		return Reply{ID: json.RawMessage("null"), Error: errorObject(-32700, "parse error"), code: -32700}
	}
	if len(req.ID) == 0 || req.Method == "" {
		return Reply{NoReply: true} // a notification or a response
	}
	rep := Reply{ID: req.ID, method: req.Method, name: req.Params.Name, version: req.Params.Meta.ProtocolVersion}
	if r.modern {
		if code, e := r.checkModern(&req); e != nil {
			rep.Error, rep.code = e, code
			return rep
		}
	}
	switch {
	case req.Method == "initialize":
		v := req.Params.ProtocolVersion
		if !knownVersions[v] {
			v = ServerVersion
		}
		rep.Initialize = true
		rep.Result = []byte(`{"protocolVersion":"` + v + `","capabilities":{"tools":{}},"serverInfo":{"name":"canned","version":"1.0.0"}}`)
	case req.Method == "server/discover" && r.modern:
		rep.Result = r.discoverResult
	case req.Method == "ping" && !r.modern: // the stateless era has no ping
		rep.Result = r.emptyResult
	case req.Method == "tools/list":
		r.countList()
		rep.Result = r.list()
	case req.Method == "tools/call":
		switch req.Params.Name {
		case EchoTool:
			rep.Result = r.echoResult
		case BigTool:
			size := req.Params.Arguments.Size
			if size <= 0 || size > 1<<30 {
				rep.Error, rep.code = errorObject(-32602, "big: arguments.size must be between 1 and 1 GiB"), -32602
			} else {
				rep.Result = r.bigResult(size)
			}
		case NotifyTool:
			a := req.Params.Arguments
			o, err := notifyOrderFor(a.Count, a.Size, a.GapUS, a.Method)
			if err != nil {
				rep.Error, rep.code = errorObject(-32602, err.Error()), -32602
			} else {
				rep.notify = o
				rep.Result = r.result(`{"content":[{"type":"text","text":"sent"}]}`)
			}
		case StatsTool:
			rep.Result = r.statsResult()
		default:
			rep.Error, rep.code = errorObject(-32602, "unknown tool "+strconv.Quote(req.Params.Name)), -32602
		}
	default:
		rep.Error, rep.code = errorObject(-32601, "method not found: "+req.Method), -32601
	}
	return rep
}

// checkModern refuses what a server of the stateless era only must: the
// legacy handshake, and requests without the protocol version or the
// client capabilities in _meta, or under a version it does not speak.
func (r *Responder) checkModern(req *request) (int, []byte) {
	m := req.Params.Meta
	switch {
	case req.Method == "initialize":
		return codeUnsupportedVersion, unsupportedVersion(req.Params.ProtocolVersion)
	case m.ProtocolVersion == "":
		return -32602, errorObject(-32602, req.Method+": _meta "+metaProtocolVersion+" is required")
	case m.ProtocolVersion != ModernVersion:
		return codeUnsupportedVersion, unsupportedVersion(m.ProtocolVersion)
	case len(m.ClientCapabilities) == 0 || string(m.ClientCapabilities) == "null":
		return -32602, errorObject(-32602, req.Method+": _meta io.modelcontextprotocol/clientCapabilities is required")
	}
	return 0, nil
}

// unsupportedVersion is the -32022 error with data {supported, requested}.
func unsupportedVersion(requested string) []byte {
	q, _ := json.Marshal(requested)
	return []byte(`{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["` + ModernVersion + `"],"requested":` + string(q) + `}}`)
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
