package interop_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// seenRequest is one request that passed through the recording proxy.
type seenRequest struct {
	Method, Path string
	SessionID    string
	LastEventID  string
	Status       int
}

// recordingProxy sits between the client and server-everything on
// loopback: it records every request and, on demand, cuts the first SSE
// reply to a request that cutMarker picks ("GET" for the first GET stream,
// else a text in a POST body) right after its first event that carries an
// id, the way a dropped connection would.
type recordingProxy struct {
	srv       *httptest.Server
	cutMarker string
	mu        sync.Mutex
	seen      []seenRequest
	cutDone   bool
	cut       chan struct{} // closed once a stream was cut
	cutOnce   sync.Once
}

func newRecordingProxy(t *testing.T, target string, cutMarker string) *recordingProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProxy{cutMarker: cutMarker, cut: make(chan struct{})}
	rp := httputil.NewSingleHostReverseProxy(u)
	direct := rp.Director
	rp.Director = func(req *http.Request) {
		direct(req)
		if p.cutMarker == http.MethodGet && req.Method == http.MethodGet {
			req.Header.Set(cutHeader, "1")
		}
		if req.Body == nil || p.cutMarker == "" || p.cutMarker == http.MethodGet {
			return
		}
		body, _ := io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(p.cutMarker)) {
			req.Header.Set(cutHeader, "1")
		}
	}
	rp.FlushInterval = -1 // stream SSE through at once
	rp.ModifyResponse = func(resp *http.Response) error {
		req := resp.Request
		p.mu.Lock()
		p.seen = append(p.seen, seenRequest{
			Method: req.Method, Path: req.URL.Path,
			SessionID:   req.Header.Get("Mcp-Session-Id"),
			LastEventID: req.Header.Get("Last-Event-ID"),
			Status:      resp.StatusCode,
		})
		cut := false
		if req.Header.Get(cutHeader) != "" && !p.cutDone &&
			strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			p.cutDone, cut = true, true
		}
		p.mu.Unlock()
		if cut {
			resp.Body = &cutAfterFirstIDEvent{body: resp.Body, onCut: func() { p.cutOnce.Do(func() { close(p.cut) }) }}
		}
		return nil
	}
	p.srv = httptest.NewServer(rp)
	t.Cleanup(p.srv.Close)
	return p
}

// cutHeader marks, inside the proxy only, a request whose reply is to be cut.
const cutHeader = "X-Interop-Cut"

func (p *recordingProxy) requests() []seenRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]seenRequest(nil), p.seen...)
}

// cutAfterFirstIDEvent passes an SSE body through until the end of the
// first event that has an "id:" field, then reports EOF and closes the
// upstream body: the client sees a stream that ended without warning.
type cutAfterFirstIDEvent struct {
	body  io.ReadCloser
	buf   []byte // everything passed so far
	done  bool
	onCut func()
}

func (c *cutAfterFirstIDEvent) Read(p []byte) (int, error) {
	if c.done {
		return 0, io.EOF
	}
	n, err := c.body.Read(p)
	if n > 0 {
		start := len(c.buf)
		c.buf = append(c.buf, p[:n]...)
		if end := firstIDEventEnd(c.buf); end >= 0 {
			c.done = true
			c.body.Close()
			c.onCut()
			keep := end - start
			if keep < 0 {
				keep = 0
			}
			return keep, nil
		}
	}
	return n, err
}

func (c *cutAfterFirstIDEvent) Close() error { return c.body.Close() }

// firstIDEventEnd returns the offset just past the blank line that ends the
// first event containing an id field, or -1.
func firstIDEventEnd(b []byte) int {
	off := 0
	for {
		i := bytes.Index(b[off:], []byte("\n\n"))
		if i < 0 {
			return -1
		}
		event := b[off : off+i]
		if bytes.HasPrefix(event, []byte("id:")) || bytes.Contains(event, []byte("\nid:")) {
			return off + i + 2
		}
		off += i + 2
	}
}
