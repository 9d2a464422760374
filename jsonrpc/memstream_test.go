package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// memStream is an in-memory Stream whose far end a test plays. What the
// Conn writes comes out as encoded frames on out; what the test puts on in
// is decoded by Read with the real codec, so tests can inject raw (and
// broken) frames as well as terminal errors.
type memStream struct {
	in     chan inbound
	out    chan []byte
	closed chan struct{}
	once   sync.Once

	readErr    error // sticky terminal error; only the read loop touches it
	closeCalls atomic.Int32
	// writeErr, when set, makes every Write fail with it.
	writeErr atomic.Pointer[error]
}

type inbound struct {
	frame []byte
	err   error
}

var errMemClosed = errors.New("memstream: closed")

func newMemStream(outBuffer int) *memStream {
	return &memStream{
		in:     make(chan inbound),
		out:    make(chan []byte, outBuffer),
		closed: make(chan struct{}),
	}
}

func (s *memStream) Read(ctx context.Context) (Message, error) {
	if s.readErr != nil {
		return nil, s.readErr
	}
	select {
	case f := <-s.in:
		if f.err != nil {
			if !IsDecodeError(f.err) {
				s.readErr = f.err
			}
			return nil, f.err
		}
		return DecodeMessage(f.frame)
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.closed:
		return nil, errMemClosed
	}
}

func (s *memStream) Write(ctx context.Context, m Message) error {
	if p := s.writeErr.Load(); p != nil {
		return *p
	}
	b, err := EncodeMessage(m)
	if err != nil {
		return err
	}
	select {
	case <-s.closed:
		return errMemClosed
	default:
	}
	select {
	case s.out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closed:
		return errMemClosed
	}
}

func (s *memStream) Close() error {
	s.closeCalls.Add(1)
	s.once.Do(func() { close(s.closed) })
	return nil
}

// peer is the test's side of a memStream.
type peer struct {
	t testing.TB
	s *memStream
}

// recv returns the next message the Conn wrote.
func (p *peer) recv() Message {
	p.t.Helper()
	b, ok := <-p.s.out
	if !ok {
		p.t.Fatal("peer: stream output closed")
	}
	m, err := DecodeMessage(b)
	if err != nil {
		p.t.Fatalf("peer: the Conn wrote an undecodable frame %s: %v", b, err)
	}
	return m
}

func (p *peer) recvRequest() *Request {
	p.t.Helper()
	m := p.recv()
	r, ok := m.(*Request)
	if !ok {
		p.t.Fatalf("peer: got %s, want a request", describe(m))
	}
	return r
}

func (p *peer) recvNotification() *Notification {
	p.t.Helper()
	m := p.recv()
	n, ok := m.(*Notification)
	if !ok {
		p.t.Fatalf("peer: got %s, want a notification", describe(m))
	}
	return n
}

func (p *peer) recvResponse() *Response {
	p.t.Helper()
	m := p.recv()
	r, ok := m.(*Response)
	if !ok {
		p.t.Fatalf("peer: got %s, want a response", describe(m))
	}
	return r
}

// send encodes m and hands it to the Conn's read loop.
func (p *peer) send(m Message) {
	p.t.Helper()
	b, err := EncodeMessage(m)
	if err != nil {
		p.t.Fatalf("peer: encoding %#v: %v", m, err)
	}
	p.s.in <- inbound{frame: b}
}

func (p *peer) sendRaw(frame string) { p.s.in <- inbound{frame: []byte(frame)} }

// fail makes the stream's Read return err (terminal unless a DecodeError).
func (p *peer) fail(err error) { p.s.in <- inbound{err: err} }

func (p *peer) reply(req *Request, result string) {
	p.t.Helper()
	p.send(&Response{ID: req.ID, Result: json.RawMessage(result)})
}

// readMode is how the engine reads the stream in a test: the streams the
// engine treats apart, which every engine test runs over (see run).
type readMode int

const (
	byRead   readMode = iota // a plain Stream: the engine's read goroutine
	inTurns                  // a readmode.TurnReader: callers read in turns
	byPushes                 // a readmode.Pusher: the stream's goroutines push
)

var readModes = []readMode{byRead, inTurns, byPushes}

func (m readMode) String() string {
	return [...]string{"read", "turns", "push"}[m]
}

// run runs test once in every read mode, as parallel subtests named
// after the mode, in parallel with the package's other engine tests.
func run(t *testing.T, test func(t *testing.T, m readMode)) {
	t.Parallel()
	for _, m := range readModes {
		t.Run(m.String(), func(t *testing.T) {
			t.Parallel()
			test(t, m)
		})
	}
}

// newTestConn starts a Conn over a fresh memStream, read in mode m, and
// closes it when the test ends.
func newTestConn(t testing.TB, m readMode, opts Options) (*Conn, *peer) {
	s := newMemStream(64)
	var st Stream = s
	switch m {
	case inTurns:
		st = newTurnStream(s)
	case byPushes:
		st = &pushStream{memStream: s}
	}
	c := NewConn(st, opts)
	t.Cleanup(func() { c.Close() })
	return c, &peer{t: t, s: s}
}

// hookLog collects what the Conn reports to its ErrorHook.
type hookLog struct {
	mu   sync.Mutex
	errs []error
	ch   chan error
}

func newHookLog() *hookLog { return &hookLog{ch: make(chan error, 100)} }

func (h *hookLog) hook(err error) {
	h.mu.Lock()
	h.errs = append(h.errs, err)
	h.mu.Unlock()
	h.ch <- err
}

func (h *hookLog) all() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.errs...)
}

// next waits for the next reported error.
func (h *hookLog) next() error { return <-h.ch }
