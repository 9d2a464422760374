package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// RecordedRequest is one HTTP request as a test double saw it. Secrets are
// not kept: the value of Authorization (and Proxy-Authorization) is reduced
// to its scheme, e.g. "Bearer [redacted]", and Cookie to "[redacted]".
type RecordedRequest struct {
	Method string
	// Path and RawQuery are the request URL's.
	Path, RawQuery string
	Header         http.Header
	Body           []byte
	// Status is the status code the server answered with. It is recorded
	// as the header is written, before any of the answer can reach the
	// client, so a client holding its reply always finds it here; it is 0
	// only while the server has not answered yet, or if the server dropped
	// the connection without answering.
	Status int
}

// RequestLog records HTTP requests in arrival order. Safe for concurrent use.
type RequestLog struct {
	mu      sync.Mutex
	reqs    []*RecordedRequest
	changed chan struct{}
}

// Requests returns a copy of every request recorded so far.
func (l *RequestLog) Requests() []RecordedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]RecordedRequest, len(l.reqs))
	for i, r := range l.reqs {
		out[i] = *r
		out[i].Header = r.Header.Clone()
	}
	return out
}

// WaitRequests waits until at least n requests have been recorded and
// returns them all.
func (l *RequestLog) WaitRequests(ctx context.Context, n int) ([]RecordedRequest, error) {
	for {
		l.mu.Lock()
		got := len(l.reqs)
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		changed := l.changed
		l.mu.Unlock()
		if got >= n {
			return l.Requests(), nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("mcptest: waiting for %d HTTP requests (have %d): %w", n, got, ctx.Err())
		}
	}
}

// record stores r (reading its body, which it replaces with a copy) and
// returns the entry, to set the status on later.
func (l *RequestLog) record(r *http.Request) (*RecordedRequest, error) {
	var body []byte
	var err error
	if r.Body != nil {
		body, err = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	rec := &RecordedRequest{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: redactHeader(r.Header), Body: body}
	l.mu.Lock()
	l.reqs = append(l.reqs, rec)
	if l.changed != nil {
		close(l.changed)
	}
	l.changed = make(chan struct{})
	l.mu.Unlock()
	return rec, err
}

func (l *RequestLog) setStatus(rec *RecordedRequest, status int) {
	l.mu.Lock()
	rec.Status = status
	l.mu.Unlock()
}

func redactHeader(h http.Header) http.Header {
	out := h.Clone()
	for _, name := range []string{"Authorization", "Proxy-Authorization"} {
		vals := out.Values(name)
		if len(vals) == 0 {
			continue
		}
		red := make([]string, len(vals))
		for i, v := range vals {
			scheme, _, _ := strings.Cut(strings.TrimSpace(v), " ")
			red[i] = scheme + " [redacted]"
		}
		out[http.CanonicalHeaderKey(name)] = red
	}
	if len(out.Values("Cookie")) > 0 {
		out["Cookie"] = []string{"[redacted]"}
	}
	return out
}

// statusRecorder records the status code written through it into the log
// entry before passing the header on. Recording it when the handler returns
// would be too late: a streamed answer is flushed to the client as it goes,
// so the client can act on its reply (and read the log) before the handler
// has finished.
type statusRecorder struct {
	http.ResponseWriter
	log    *RequestLog
	rec    *RecordedRequest
	status int
}

// note records code as the answer's status, once. A 1xx code is
// informational, not the answer's.
func (s *statusRecorder) note(code int) {
	if s.status != 0 || (code >= 100 && code < 200) {
		return
	}
	s.status = code
	s.log.setStatus(s.rec, code)
}

func (s *statusRecorder) WriteHeader(code int) {
	s.note(code)
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.note(http.StatusOK)
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer (to flush).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// FlushError flushes the real writer and says whether that worked.
func (s *statusRecorder) FlushError() error {
	return http.NewResponseController(s.ResponseWriter).Flush()
}

// Flush is FlushError for writers that check http.Flusher.
func (s *statusRecorder) Flush() { _ = s.FlushError() }

// recordingHandler records every request into log before h serves it,
// unless the server keeps no record (Options.NoRecord): a long-running
// server's log would grow with every request, each a copy of its headers
// and body.
func (s *Server) recordingHandler(log *RequestLog, h http.Handler) http.Handler {
	if s.opts.NoRecord {
		return h
	}
	return recordingHandler(log, h)
}

// recordingHandler records every request into log before h serves it.
func recordingHandler(log *RequestLog, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec, err := log.record(r)
		sr := &statusRecorder{ResponseWriter: w, log: log, rec: rec}
		if err != nil {
			http.Error(sr, "Bad Request: reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		h.ServeHTTP(sr, r)
		// A handler that returns without writing is answered 200 by
		// net/http, after this; one that panics (a dropped connection)
		// does not get here and keeps 0.
		sr.note(http.StatusOK)
	})
}
