package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The standalone stream keeps a bounded log of what it wrote. Before,
// every message sent on it (a list_changed, a resource update, a log
// message outside a call) was kept until the session ended: a long
// session grew with every notification the server ever sent it. Written
// events are kept for resumption, the newest keepWritten to twice that, and
// a Last-Event-ID older than those resumes from the oldest kept.
func TestStandaloneStreamKeepsABoundedLog(t *testing.T) {
	ss, stream, o := openStandalone(t)
	n := 3*keepWritten + 10
	for i := range n {
		if err := ss.Notify(context.Background(), "notifications/test", map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	var firstID string
	for i := range n {
		ev, err := stream.next()
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.Data) == 0 {
			continue // the priming event
		}
		if firstID == "" {
			firstID = ev.ID
		}
		var m struct{ Params struct{ I int } }
		if err := json.Unmarshal(ev.Data, &m); err != nil || m.Params.I != i {
			t.Fatalf("event %s, want i=%d", ev.Data, i)
		}
	}
	o.mu.Lock()
	kept := len(o.standalone.events)
	o.mu.Unlock()
	if kept > 2*keepWritten { // trimmed now and then, not per event
		t.Errorf("the standalone stream keeps %d written events, want at most %d", kept, 2*keepWritten)
	}
	// A host that comes back naming the first event resumes from the
	// oldest kept (the first stream is still attached here, so this asks
	// the stream's resume point directly).
	st, pos, err := o.resumePoint(firstID)
	if err != nil || st != o.standalone || pos != n-kept {
		t.Errorf("Last-Event-ID %q resumes at %d (%v), want the oldest kept, %d", firstID, pos, err, n-kept)
	}
}

// The bound on the standalone stream is on what a host has not read for
// a long time, not on what is in flight: a host that reads its stream
// while far more than keepWritten events are sent gets every one, in
// order. Trimming by count alone dropped events the writer had not yet
// reached.
func TestStandaloneStreamLosesNothingAReaderKeepsUpWith(t *testing.T) {
	ss, stream, _ := openStandalone(t)
	n := 8 * keepWritten
	sent := make(chan error, 1)
	go func() {
		for i := range n {
			if err := ss.Notify(context.Background(), "notifications/test", map[string]int{"i": i}); err != nil {
				sent <- err
				return
			}
		}
		sent <- nil
	}()
	for want := range n {
		m, ok := stream.nextMessage().(*jsonrpc.Notification)
		if !ok {
			t.Fatalf("not a notification: %#v", m)
		}
		var p struct{ I int }
		if err := json.Unmarshal(m.Params, &p); err != nil || p.I != want {
			t.Fatalf("notification %s, want i=%d: events were lost", m.Params, want)
		}
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}

// A host that never reads (or never opens the stream) holds at most
// maxUnsentEvents events and maxUnsentBytes bytes of it, the newest.
func TestStandaloneStreamBoundsWhatNobodyReads(t *testing.T) {
	s := NewDefault(nil)
	hs := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, hs)
	c.initialize("2025-06-18")
	ss := s.Sessions()[0]
	hs.Streamable.mu.Lock()
	o := hs.Streamable.sessions[c.session]
	hs.Streamable.mu.Unlock()
	kept := func() (events, size, counted, last int) {
		o.mu.Lock()
		defer o.mu.Unlock()
		st := o.standalone
		for _, ev := range st.events {
			size += len(ev.data)
		}
		return len(st.events), size, st.unsentSize, st.base + len(st.events)
	}
	notify := func(n int, data string) {
		for i := range n {
			if err := ss.Notify(context.Background(), "notifications/test", map[string]any{"i": i, "data": data}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// By count: small events.
	notify(maxUnsentEvents+10, "")
	if n, size, counted, last := kept(); n != maxUnsentEvents || size != counted || last != maxUnsentEvents+10 {
		t.Errorf("kept %d events of %d bytes (counted %d), the newest number %d; want the newest %d, counted right",
			n, size, counted, last, maxUnsentEvents)
	}
	// By size: large ones.
	notify(maxUnsentBytes/(64<<10)+10, strings.Repeat("x", 64<<10))
	if n, size, counted, _ := kept(); size > maxUnsentBytes || size != counted || n >= maxUnsentEvents {
		t.Errorf("kept %d events of %d bytes (counted %d); want at most %d bytes", n, size, counted, maxUnsentBytes)
	}
}

// A call's reply stream is bounded the same way for a host that does not
// read it (a long call's progress to a stalled client), and its response,
// the stream's last event, is kept whatever came before it.
func TestReplyStreamBoundsWhatNobodyReads(t *testing.T) {
	s := NewDefault(nil)
	hs := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, hs)
	c.initialize("2025-06-18")
	hs.Streamable.mu.Lock()
	o := hs.Streamable.sessions[c.session]
	hs.Streamable.mu.Unlock()
	id := jsonrpc.StringID("long-call")
	st := o.openReply(id, false, false)
	for i := range maxUnsentEvents + 10 {
		n := &jsonrpc.Notification{Method: "notifications/progress", Params: json.RawMessage(`{"progressToken":1,"progress":` + strconv.Itoa(i) + `}`)}
		if err := o.send(context.Background(), n, id); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.send(context.Background(), &jsonrpc.Response{ID: id, Result: json.RawMessage(`{"content":[]}`)}, id); err != nil {
		t.Fatal(err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	size := 0
	for _, ev := range st.events {
		size += len(ev.data)
	}
	if len(st.events) > maxUnsentEvents || size != st.unsentSize || !st.final {
		t.Errorf("kept %d events of %d bytes (counted %d), final %v; want at most %d, counted right, final", len(st.events), size, st.unsentSize, st.final, maxUnsentEvents)
	}
	if last := st.events[len(st.events)-1].data; !strings.Contains(string(last), `"long-call"`) {
		t.Errorf("the last event kept is %s, want the response", last)
	}
}

// openStandalone starts a 2025-06-18 session over HTTP and opens its
// standalone (GET) stream; o is the handler's side of the session.
func openStandalone(t *testing.T) (ss *Session, stream *eventStream, o *httpOut) {
	t.Helper()
	s := NewDefault(nil)
	hs := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, hs)
	c.initialize("2025-06-18")
	resp := c.do(http.MethodGet, "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %s", resp.Status)
	}
	hs.Streamable.mu.Lock()
	o = hs.Streamable.sessions[c.session]
	hs.Streamable.mu.Unlock()
	return s.Sessions()[0], openEvents(t, resp), o
}
