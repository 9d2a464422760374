package inspect

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/mcp"
)

// eras are the two ways a server asks: a request of its own (initialize
// era) or an input_required round (stateless era).
var eras = []struct{ protocol, label string }{
	{"2025-11-25", "server request"},
	{mcp.ModernProtocolVersion, "input_required (MRTR)"},
}

// nextAsks reads events until the list of waiting questions has n items.
func nextAsks(t *testing.T, next func() sse.Event, n int) []ask {
	t.Helper()
	for {
		e := next()
		if e.Type != "asks" {
			continue
		}
		var list []ask
		if err := json.Unmarshal(e.Data, &list); err != nil {
			t.Fatal(err)
		}
		if len(list) == n {
			return list
		}
	}
}

func textOf(t *testing.T, rec callRecord) string {
	t.Helper()
	res := resultOf(t, rec)
	if rec.State != "done" || res == nil || len(res.Content) == 0 {
		t.Fatalf("call ended %s (%s) with %s", rec.State, rec.Error, rec.Result)
	}
	return res.Content[0].Text
}

// In both eras a sampling request and a form elicitation wait for the
// page's answer, and a malformed answer leaves them waiting.
func TestAsksAnsweredFromThePage(t *testing.T) {
	for _, era := range eras {
		t.Run(era.protocol, func(t *testing.T) {
			p := newPageClient(t, Options{Hooks: NewHooks()}, &mcp.ClientOptions{ProtocolVersion: era.protocol})
			next := p.events(t)
			call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"sample","arguments":{"prompt":"say hi"}}`)
			q := nextAsks(t, next, 1)[0]
			if q.Kind != "sampling" || q.Server != "demo" || q.Era != era.label || !strings.Contains(mustJSON(q.Params), "say hi") {
				t.Fatalf("question: %+v", q)
			}
			if resp := p.do(t, http.MethodPost, "/api/answer", `{"id":1,"action":"accept","result":{"content":[{"type":"text","text":"x"}]}}`, nil); resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("a sampling result without a model: %s", resp.Status)
			}
			postJSON[struct{}](t, p, "/api/answer", `{"id":1,"action":"accept","result":{"role":"assistant","content":[{"type":"text","text":"hi from a person"}],"model":"person"}}`)
			rec, _ := waitCall(t, next, call.ID, nil)
			if got := textOf(t, rec); got != "hi from a person" {
				t.Fatalf("the tool got %q", got)
			}
			if resp := p.do(t, http.MethodPost, "/api/answer", `{"id":1,"action":"reject"}`, nil); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("answering twice: %s", resp.Status)
			}

			call = postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"elicit","arguments":{}}`)
			q = nextAsks(t, next, 1)[0]
			if q.Kind != "elicitation" || !strings.Contains(mustJSON(q.Params), "requestedSchema") {
				t.Fatalf("question: %+v", q)
			}
			if resp := p.do(t, http.MethodPost, "/api/answer", `{"id":2,"action":"accept"}`, nil); resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("an accepted form without content: %s", resp.Status)
			}
			postJSON[struct{}](t, p, "/api/answer", `{"id":2,"action":"accept","content":{"name":"Ada"}}`)
			rec, _ = waitCall(t, next, call.ID, nil)
			var got mcp.ElicitResult
			if err := json.Unmarshal([]byte(textOf(t, rec)), &got); err != nil || got.Action != "accept" || got.Content["name"] != "Ada" {
				t.Fatalf("the tool got %s (%v)", textOf(t, rec), err)
			}
		})
	}
}

// A rejected sampling request is the user's refusal (in the stateless
// era the client fails the call with it, as no answer can be sent); a
// question whose call is cancelled leaves the page.
func TestAsksRejectedAndWithdrawn(t *testing.T) {
	p := newPageClient(t, Options{Hooks: NewHooks()}, nil)
	next := p.events(t)
	call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"sample","arguments":{"prompt":"no"}}`)
	nextAsks(t, next, 1)
	postJSON[struct{}](t, p, "/api/answer", `{"id":1,"action":"reject"}`)
	rec, _ := waitCall(t, next, call.ID, nil)
	if rec.State != "failed" || !strings.Contains(rec.Error, "rejected") {
		t.Fatalf("after a rejection the call ended %s: %q", rec.State, rec.Error)
	}
	call = postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"elicit","arguments":{}}`)
	nextAsks(t, next, 1)
	postJSON[struct{}](t, p, "/api/cancel", `{"id":`+jsonInt(call.ID)+`}`)
	nextAsks(t, next, 0)
	if resp := p.do(t, http.MethodPost, "/api/answer", `{"id":2,"action":"decline"}`, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("answering a withdrawn question: %s", resp.Status)
	}
}

// The roots the page gives answer roots/list; a root that is not a
// file:// URI is refused.
func TestAsksRoots(t *testing.T) {
	p := newPageClient(t, Options{Hooks: NewHooks()}, nil)
	if resp := p.do(t, http.MethodPost, "/api/roots", `{"roots":[{"uri":"https://example.com"}]}`, nil); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("an https root: %s", resp.Status)
	}
	got := postJSON[struct{ Failed []string }](t, p, "/api/roots", `{"roots":[{"uri":"file:///work","name":"work"}]}`)
	if len(got.Failed) != 0 {
		t.Fatalf("telling the server: %v", got.Failed)
	}
	next := p.events(t)
	call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"roots","arguments":{}}`)
	rec, _ := waitCall(t, next, call.ID, nil)
	if text := textOf(t, rec); !strings.Contains(text, "file:///work") {
		t.Fatalf("the server got roots %s", text)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
