package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/wirerec"
)

// Bounds of the wire buffer: the oldest messages go first when either is
// reached, so a long session keeps the recent past in bounded memory.
const (
	DefaultWireMessages = 100000
	DefaultWireBytes    = 64 << 20
	// maxPending bounds the requests awaiting their answer that the
	// timeline remembers for latency (a server that never answers must
	// not grow it forever).
	maxPending = 10000
)

// WireEntry is one JSON-RPC message on the timeline, as the page shows it.
type WireEntry struct {
	Seq       int64           `json:"seq"`
	Time      time.Time       `json:"time"`
	Server    string          `json:"server"`
	Direction string          `json:"direction"`
	Kind      string          `json:"kind"` // request, notification, result, error, invalid
	Method    string          `json:"method,omitempty"`
	ID        json.RawMessage `json:"id,omitempty"`
	ReplyTo   int64           `json:"replyTo,omitempty"`   // seq of the request answered
	LatencyMS float64         `json:"latencyMs,omitempty"` // since that request
	Size      int             `json:"size"`
	Message   json.RawMessage `json:"message"`
	// HTTP is the exchange that carried a sent message over HTTP (see
	// TapHTTP); it comes as an update of the entry.
	HTTP *WireHTTP `json:"http,omitempty"`

	line []byte // the recording line, exported as is
}

// Wire is the timeline of every server's messages. It is the io.Writer a
// transport.Recorder writes to: each line it is given is one recorded
// message. It keeps a bounded buffer and tells subscribers of each new
// entry. Safe for concurrent use.
type Wire struct {
	mu       sync.Mutex
	entries  []*WireEntry // oldest first
	bytes    int
	maxMsgs  int
	maxBytes int
	seq      int64
	pending  map[string]*WireEntry
	partial  []byte
	notify   func(*WireEntry)
}

// NewWire returns an empty timeline keeping at most maxMessages entries and
// maxBytes of their recording (zero: the defaults).
func NewWire(maxMessages, maxBytes int) *Wire {
	if maxMessages <= 0 {
		maxMessages = DefaultWireMessages
	}
	if maxBytes <= 0 {
		maxBytes = DefaultWireBytes
	}
	return &Wire{maxMsgs: maxMessages, maxBytes: maxBytes, pending: make(map[string]*WireEntry)}
}

// Write takes recording lines (the Recorder writes one whole line per
// call; a line split over calls is joined). A line that is not a
// recording entry is dropped: the timeline must never stop a connection.
func (w *Wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := bytes.Clone(w.partial[:i+1])
		w.partial = w.partial[i+1:]
		w.add(line)
	}
	if len(w.partial) > wirerec.MaxLineSize {
		w.partial = nil
	}
	if len(w.partial) == 0 {
		w.partial = nil // let a large line's memory go
	}
	return len(p), nil
}

// envelope is the part of a JSON-RPC message the timeline shows.
type envelope struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// add decodes one line and appends it; w.mu is held.
func (w *Wire) add(line []byte) {
	var rec wirerec.Entry
	if err := json.Unmarshal(line, &rec); err != nil || len(rec.Message) == 0 {
		return
	}
	// The message as it stands in the line, not the decoder's copy: the
	// entry then holds it once, as the byte bound counts it.
	msg := rec.Message
	if i := bytes.Index(line, msg); i >= 0 {
		msg = line[i : i+len(msg) : i+len(msg)]
	}
	e := newWireEntry(rec.Time, rec.Transport, string(rec.Direction), msg)
	e.line = line
	w.insert(e)
}

// newWireEntry classifies one message for the timeline.
func newWireEntry(t time.Time, server, direction string, msg json.RawMessage) *WireEntry {
	e := &WireEntry{Time: t, Server: server, Direction: direction, Size: len(msg), Message: msg}
	var env envelope
	if err := json.Unmarshal(msg, &env); err != nil {
		e.Kind = "invalid"
		return e
	}
	e.Method = env.Method
	if len(env.ID) > 0 && string(env.ID) != "null" {
		e.ID = env.ID
	}
	switch {
	case env.Method != "" && e.ID != nil:
		e.Kind = "request"
	case env.Method != "":
		e.Kind = "notification"
	case env.Error != nil:
		e.Kind = "error"
	default:
		e.Kind = "result"
	}
	return e
}

// insert appends e, drops the oldest entries beyond the bounds and tells
// the subscriber; w.mu is held.
func (w *Wire) insert(e *WireEntry) {
	w.correlate(e)
	w.seq++
	e.Seq = w.seq
	w.entries = append(w.entries, e)
	w.bytes += e.cost()
	for len(w.entries) > 1 && (len(w.entries) > w.maxMsgs || w.bytes > w.maxBytes) {
		w.bytes -= w.entries[0].cost()
		w.entries[0] = nil
		w.entries = w.entries[1:]
	}
	if w.notify != nil {
		w.notify(e)
	}
}

// cost is what e counts against the byte bound: its recording line, or
// its message when it has none (a view's message, see apps_wire.go).
func (e *WireEntry) cost() int {
	if e.line != nil {
		return len(e.line)
	}
	return e.Size
}

// correlate pairs an answer with its request: same server, opposite
// direction, same id.
func (w *Wire) correlate(e *WireEntry) {
	if e.ID == nil {
		return
	}
	key := func(dir string) string { return e.Server + "\x00" + dir + "\x00" + string(e.ID) }
	switch e.Kind {
	case "request":
		if len(w.pending) >= maxPending {
			clear(w.pending)
		}
		w.pending[key(e.Direction)] = e
	case "result", "error":
		asked := "send"
		if e.Direction == "send" {
			asked = "receive"
		}
		req := w.pending[key(asked)]
		if req == nil {
			return
		}
		delete(w.pending, key(asked))
		e.Method = req.Method
		e.ReplyTo = req.Seq
		e.LatencyMS = float64(e.Time.Sub(req.Time).Microseconds()) / 1000
	}
}

// Entries returns the buffered entries, oldest first.
func (w *Wire) Entries() []*WireEntry {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*WireEntry(nil), w.entries...)
}

// Export writes the buffered messages in the format --record writes (one
// wirerec line each), so that an export replays as a test server. The
// messages of MCP App views, which never crossed a server's transport,
// are left out.
func (w *Wire) Export(out io.Writer) error {
	for _, e := range w.Entries() {
		if e.line == nil {
			continue
		}
		if _, err := out.Write(e.line); err != nil {
			return err
		}
	}
	return nil
}

// setNotify sets the function told of each new entry, under the wire's
// lock (so it must not block nor call back into the Wire).
func (w *Wire) setNotify(fn func(*WireEntry)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notify = fn
}
