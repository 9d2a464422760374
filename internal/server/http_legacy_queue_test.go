package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// stuckStream is the ResponseWriter of a legacy stream whose client
// stops reading once stuck is set: every later Write blocks until the
// write deadline is moved (as a connection's would), then fails.
type stuckStream struct {
	hdr      http.Header
	stuck    atomic.Bool
	mu       sync.Mutex
	written  strings.Builder
	deadline chan struct{}
	once     sync.Once
}

func newStuckStream() *stuckStream {
	return &stuckStream{hdr: http.Header{}, deadline: make(chan struct{})}
}

func (s *stuckStream) Header() http.Header { return s.hdr }
func (s *stuckStream) WriteHeader(int)     {}
func (s *stuckStream) FlushError() error   { return nil }

func (s *stuckStream) Write(b []byte) (int, error) {
	if s.stuck.Load() {
		<-s.deadline
		return 0, os.ErrDeadlineExceeded
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written.Write(b)
}

func (s *stuckStream) SetWriteDeadline(time.Time) error {
	s.once.Do(func() { close(s.deadline) })
	return nil
}

func (s *stuckStream) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written.String()
}

// openStuckLegacy opens a legacy stream on h that stops being read once
// its endpoint event is in; it returns the message URL and a channel
// closed when the stream's handler returned.
func openStuckLegacy(t *testing.T, h http.Handler) (string, *stuckStream, chan struct{}) {
	t.Helper()
	w := newStuckStream()
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	go func() {
		defer close(done)
		h.ServeHTTP(w, httptest.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1/sse", nil))
	}()
	synctest.Wait()
	_, endpoint, ok := strings.Cut(w.text(), "data: ")
	if !ok {
		t.Fatalf("no endpoint event: %q", w.text())
	}
	w.stuck.Store(true)
	return "http://127.0.0.1" + strings.TrimSpace(endpoint), w, done
}

func legacyPost(t *testing.T, h http.Handler, url, body string) int {
	r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code
}

// A client that opens its stream and stops reading while it POSTs: the
// session ends once its queue is past its bound, in count or in bytes,
// with a warning, instead of growing.
func TestLegacyQueueIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(i int) string
		most int // POSTs that must suffice
	}{
		{"count", func(i int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i) }, legacyQueueLength + 10},
		{"bytes", func(i int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":%q}}}`, i, strings.Repeat("x", 3<<20))
		}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := NewDefault(nil)
				h := srv.LegacySSEHandler()
				var warned []error
				var mu sync.Mutex
				h.Warn = func(err error) { mu.Lock(); warned = append(warned, err); mu.Unlock() }
				t.Cleanup(func() { h.Close(); _ = srv.Close() })
				url, stream, done := openStuckLegacy(t, h)
				if code := legacyPost(t, h, url, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); code != http.StatusAccepted {
					t.Fatalf("initialize: %d", code)
				}
				legacyPost(t, h, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				for i := 1; i <= tc.most; i++ {
					if legacyPost(t, h, url, tc.body(i)) == http.StatusNotFound {
						break // ended
					}
					synctest.Wait()
				}
				synctest.Wait()
				select {
				case <-done:
				default:
					_ = stream.SetWriteDeadline(time.Now()) // frees the stream to end the test
					t.Fatalf("the stream of a client that stopped reading is still open after %d POSTs", tc.most)
				}
				if code := legacyPost(t, h, url, tc.body(0)); code != http.StatusNotFound {
					t.Fatalf("POST after the session ended: %d, want 404", code)
				}
				if n := len(srv.Sessions()); n != 0 {
					t.Fatalf("%d sessions left, want 0", n)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(warned) != 1 || !errors.Is(warned[0], errLegacyNotReading) {
					t.Fatalf("warnings %v, want one saying the client did not read", warned)
				}
			})
		})
	}
}

func TestLegacyMaxSessions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewDefault(nil)
		h := srv.LegacySSEHandler()
		h.MaxSessions = 1
		t.Cleanup(func() { h.Close(); _ = srv.Close() })
		openStuckLegacy(t, h)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), http.MethodGet, "http://127.0.0.1/sse", nil))
		if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "at most 1 sessions") {
			t.Fatalf("a second stream past the cap: %d %q, want 503 saying the cap", w.Code, w.Body)
		}
		if n := len(srv.Sessions()); n != 1 {
			t.Fatalf("%d sessions, want 1", n)
		}
	})
}
