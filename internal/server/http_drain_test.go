package server

import (
	"errors"
	"io"
	"net/http"
	"testing"
)

// EndListenStreams ends the GET streams that are open (they never end by
// themselves, and would hold an http.Server's Shutdown to its deadline),
// refuses new ones with 503, and leaves POSTs served.
func TestEndListenStreams(t *testing.T) {
	s := NewDefault(nil)
	hs := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, hs)
	c.initialize("2025-06-18")
	resp := c.do(http.MethodGet, "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %s", resp.Status)
	}
	stream := openEvents(t, resp) // its header came: the stream is open
	hs.Streamable.EndListenStreams()
	hs.Streamable.EndListenStreams() // once is enough; twice is no fault
	if ev, err := stream.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("the GET stream after EndListenStreams: %+v, %v; want its end", ev, err)
	}
	if again := c.do(http.MethodGet, "", nil); again.StatusCode != http.StatusServiceUnavailable || again.Header.Get("Retry-After") == "" {
		t.Errorf("a GET after EndListenStreams: %s, Retry-After %q; want 503 with Retry-After", again.Status, again.Header.Get("Retry-After"))
	}
	post, _ := c.post("ping", nil)
	if post.StatusCode != http.StatusOK {
		t.Errorf("a POST after EndListenStreams: %s", post.Status)
	}
}
