package server

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The standalone stream keeps a bounded log. Before, every message sent
// on it (a list_changed, a resource update, a log message outside a call)
// was kept until the session ended, delivered or not: a long session, or
// one a host left without DELETE, grew with every notification the
// server ever sent it.
func TestStandaloneStreamKeepsABoundedLog(t *testing.T) {
	s := NewDefault(nil)
	hs := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, hs)
	c.initialize("2025-06-18")
	ss := s.Sessions()[0]
	n := keepStandalone + 10
	for i := range n {
		if err := ss.Notify(context.Background(), "notifications/test", map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	hs.Streamable.mu.Lock()
	o := hs.Streamable.sessions[c.session]
	hs.Streamable.mu.Unlock()
	o.mu.Lock()
	kept := len(o.standalone.events)
	o.mu.Unlock()
	if kept > keepStandalone {
		t.Errorf("the standalone stream keeps %d events, want at most %d", kept, keepStandalone)
	}
	// A listener gets the newest of them, in order, the last one included.
	resp := c.do(http.MethodGet, "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %s", resp.Status)
	}
	stream := openEvents(t, resp)
	want := n - kept
	for want < n {
		m, ok := stream.nextMessage().(*jsonrpc.Notification)
		if !ok {
			t.Fatalf("not a notification: %#v", m)
		}
		var p struct{ I int }
		if err := json.Unmarshal(m.Params, &p); err != nil || p.I != want {
			t.Fatalf("notification %s, want i=%d", m.Params, want)
		}
		want++
	}
}
