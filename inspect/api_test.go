package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/wirerec"
	"github.com/mcpwire/mcpwire/mcptest"
)

func postJSON[T any](t *testing.T, p *page, path, body string) T {
	t.Helper()
	resp := p.do(t, http.MethodPost, path, body, nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s: %s", path, resp.Status, b)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("POST %s: %v in %s", path, err, b)
	}
	return v
}

// A call runs in the background: its result reaches the page as a "call"
// event, its messages as "wire" events paired request to response.
func TestCallResultAndWire(t *testing.T) {
	p := newPage(t)
	next := p.events(t)
	started := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"add","arguments":{"a":2,"b":3}}`)
	rec, wire := waitCall(t, next, started.ID, nil)
	if res := resultOf(t, rec); rec.State != "done" || res == nil || string(res.StructuredContent) != `{"sum":5}` {
		t.Fatalf("call: %+v", rec)
	}
	if rec.Command != `mcpwire call add --args-json '{"a":2,"b":3}' -- demo-server` {
		t.Errorf("command: %s", rec.Command)
	}
	var req, res *WireEntry
	for i := range wire {
		e := &wire[i]
		if e.Method == "tools/call" && e.Kind == "request" {
			req = e
		}
		if e.Method == "tools/call" && e.Kind == "result" {
			res = e
		}
	}
	if req == nil || res == nil {
		t.Fatalf("no tools/call request and result on the wire: %+v", wire)
	}
	if res.ReplyTo != req.Seq || res.Direction != "receive" || req.Direction != "send" || res.Server != "demo" || res.Size != len(res.Message) {
		t.Errorf("pairing: request %+v, result %+v", req, res)
	}
}

// Cancel ends a running call: the call is "cancelled" and the wire shows
// notifications/cancelled going to the server.
func TestCancelSlowCall(t *testing.T) {
	p := newPage(t)
	next := p.events(t)
	started := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"slow","arguments":{"steps":100000,"delay_ms":5}}`)
	cancelled := false
	rec, wire := waitCall(t, next, started.ID, func(c callRecord) {
		if c.Progress != nil && !cancelled {
			cancelled = true
			postJSON[struct{}](t, p, "/api/cancel", `{"id":`+jsonInt(started.ID)+`}`)
		}
	})
	if !cancelled || rec.State != "cancelled" {
		t.Fatalf("call: %+v (cancel sent: %v)", rec, cancelled)
	}
	// The notice may follow the call's end on the wire: read on until it.
	for !hasCancelNotice(wire) {
		e := next()
		if e.Type == "wire" {
			var w WireEntry
			_ = json.Unmarshal(e.Data, &w)
			wire = append(wire, w)
		}
	}
}

func hasCancelNotice(wire []WireEntry) bool {
	for _, e := range wire {
		if e.Method == "notifications/cancelled" && e.Direction == "send" {
			return true
		}
	}
	return false
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// Resources are listed and read, prompts got with their arguments.
func TestReadAndPrompt(t *testing.T) {
	p := newPage(t)
	read := postJSON[struct {
		Contents []struct{ URI, Text string }
	}](t, p, "/api/read?server=demo", `{"uri":"`+mcptest.HelloURI+`"}`)
	if len(read.Contents) != 1 || read.Contents[0].Text != mcptest.HelloText {
		t.Fatalf("read: %+v", read)
	}
	got := postJSON[struct {
		Messages []struct {
			Content struct{ Text string }
		}
	}](t, p, "/api/prompt?server=demo", `{"name":"summarize","arguments":{"topic":"otters"}}`)
	if len(got.Messages) == 0 || !strings.Contains(got.Messages[0].Content.Text, "otters") {
		t.Fatalf("prompt: %+v", got)
	}
	resp := p.do(t, http.MethodPost, "/api/read?server=nope", `{"uri":"demo://hello"}`, nil)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown server: %s", resp.Status)
	}
}

// The export is the --record format, line for line, and carries no
// secret the recorder knows.
func TestExportIsARecording(t *testing.T) {
	const secret = "s3cr3t-value-42"
	p := newPage(t, secret)
	next := p.events(t)
	started := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"echo","arguments":{"message":"`+secret+`"}}`)
	waitCall(t, next, started.ID, nil)
	resp := p.do(t, http.MethodGet, "/api/wire.jsonl", "", nil)
	b, _ := io.ReadAll(resp.Body)
	if bytes.Contains(b, []byte(secret)) {
		t.Fatal("the export holds the secret")
	}
	entries, err := wirerec.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the export is not a recording: %v", err)
	}
	if len(entries) != len(p.wire.Entries()) || len(entries) < 4 {
		t.Fatalf("%d entries exported, %d buffered", len(entries), len(p.wire.Entries()))
	}
	if !strings.Contains(string(b), `[redacted]`) {
		t.Error("no redaction marker where the secret was")
	}
}
