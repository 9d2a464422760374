package transport

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "MCP-Protocol-Version"
	headerLastEventID     = "Last-Event-ID"

	// inboundBuffer lets reply readers run a little ahead of Read; beyond
	// it they block, which is the backpressure on the server's streams.
	inboundBuffer = 8
	// deleteTimeout bounds the DELETE that Close sends.
	deleteTimeout = 5 * time.Second
	// reinitTimeout bounds a transparent session re-initialization.
	reinitTimeout = 30 * time.Second
)

// httpStream is one Streamable HTTP connection.
//
// Concurrency: Write may be called from many goroutines; each message is
// its own POST and they run concurrently (nothing is interleaved because
// nothing is shared on the wire). Read is called from one goroutine.
// Reply bodies, resumption and the GET listener run on goroutines that
// the stream owns and Close waits for. While a session is being renewed,
// new Writes wait for the renewal (or their ctx) before posting.
type httpStream struct {
	ep     *httpEndpoint // read-only; maybe shared with other streams
	sender *httpSender

	wg sync.WaitGroup

	// inbound queues messages for Read until the engine asks for them to
	// be pushed (Push), which it does first thing; made on first use, so
	// that a pushing stream holds no queue.
	inbound     chan inboundItem
	inboundOnce sync.Once
	// over says that the stream is over without a channel, for openErr
	// (next to inboundOnce, as are the bools below after mu, so that
	// their padding does not take the stream into a larger size class).
	over atomic.Bool
	// pushTo, once the engine asked for it (Push), takes every message
	// instead of inbound; pushEnded is told the terminal error. Both are
	// set under mu before any Write; pushTo is read without it.
	pushTo    atomic.Pointer[pushTarget]
	pushEnded func(error)
	// done is closed once the stream is over; made only when something
	// waits on it (see doneChan), as an idle pushing stream has nothing
	// that does.
	done      chan struct{} // guarded by mu
	termErr   error         // why; written before over is set and done closed
	closeOnce sync.Once

	mu             sync.Mutex
	ended          bool // terminal: no new goroutines
	haveInit       bool // initParams holds initialize's params
	listenerWanted bool // notifications/initialized went through
	listenerHeld   bool // see HoldListener
	// listenerRenewed: a GET of the listener met an expired session and
	// renewed it, and no GET has been answered with a stream since. A
	// GET that meets "expired" again then means the server has no GET
	// route (404 for any GET), not a session gone twice: renewing again
	// would loop for ever.
	listenerRenewed bool
	sessionID       string
	gen             uint64 // bumped whenever sessionID changes
	version         string
	// initParams are the params of the engine's initialize, for re-init,
	// interned: the sessions of one client configuration send the same
	// ones, and an idle session then holds a pointer instead of a copy.
	initParams unique.Handle[string]
	reinitSeq  int
	// renewal is the session renewal under way, nil when none; stored
	// under mu, loaded without it by awaitRenewal, which every Write runs.
	renewal        atomic.Pointer[renewal]
	running        *postCall          // the calls in flight, linked; see track
	parents        *parentWatch       // the callers' ctxs they watch, linked; see watchParentLocked
	lastParent     <-chan struct{}    // the Done of the ctx the last POST watched, while calls are in flight
	listenerCancel context.CancelFunc // nil until one started; see startListener
	listenerGen    uint64             // bumped by each start
	// ctx is the stream's lifetime, for the work that does not stop with
	// a call (a session renewal): cancelled by Close or a terminal
	// failure. Made on first use; see lifeCtx.
	ctx    context.Context
	cancel context.CancelFunc

	// stateless: the version is of the stateless era (see http_modern.go).
	stateless atomic.Bool
	reissues  atomic.Uint64 // numbers the ids of re-issued requests

	// restore, set by the client above (internal/renewhook), runs inside
	// each renewal before other Writes are let through. Guarded by mu.
	restore func(ctx context.Context)
}

// inboundItem is one result for Read: a message or a non-terminal decode
// error.
type inboundItem struct {
	msg jsonrpc.Message
	err error
}

// pushTarget is the engine's receiver (see readmode.Pusher).
type pushTarget struct{ to receiver }

var (
	_ pusher                     = (*httpStream)(nil)
	_ jsonrpc.Stream             = (*httpStream)(nil)
	_ SessionIDer                = (*httpStream)(nil)
	_ seam.ProtocolVersionSetter = (*httpStream)(nil)
	_ seam.ListenerHolder        = (*httpStream)(nil)
)

func newHTTPStream(ep *httpEndpoint) *httpStream {
	return &httpStream{ep: ep, sender: newHTTPSender(ep.cfg.HTTPClient, ep.cfg.Headers, ep.cfg.Auth, ep.url)}
}

// Read returns the next message from any of the server's streams. Once the
// stream is over it returns the terminal error (wrapping jsonrpc.ErrClosed
// after Close, or ErrSessionExpired when a renewal failed).
func (s *httpStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := s.openErr(); err != nil {
		return nil, err
	}
	select {
	case it := <-s.queue():
		return it.msg, it.err
	case <-s.doneChan():
		return nil, s.termErr
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Push makes the stream hand every message straight to the engine, on the
// goroutine that read it (see readmode.Pusher), instead of queueing it for
// Read: the engine then needs no read goroutine.
func (s *httpStream) Push(to receiver, ended func(error)) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		ended(s.termErr)
		return
	}
	s.pushEnded = ended
	s.pushTo.Store(&pushTarget{to: to})
	s.mu.Unlock()
	// Nothing is queued yet: Push comes before any Write, and the
	// listener starts only after one.
}

// SessionID returns the session the server issued, "" when none.
func (s *httpStream) SessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionID
}

// SetProtocolVersion records the negotiated version; from then on every
// request but initialize carries MCP-Protocol-Version when the version is
// 2025-06-18 or later (2025-03-26 had no such header). A version of the
// stateless era (2026-07-28 and later) also switches the stream to that
// era's rules: Mcp-Method and Mcp-Name on every POST, no resumption, and
// notifications/cancelled closes the request's reply stream instead of
// being sent. Call it before the first request of that era.
func (s *httpStream) SetProtocolVersion(version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version = version
	s.stateless.Store(isStatelessVersion(version))
}

// Close ends the stream: it stops the listener, every reply stream and
// resumption, sends DELETE for the session (bounded by 5 s; failures other
// than 404/405 go to ErrorHook), and makes Read and Write fail with an
// error wrapping jsonrpc.ErrClosed. It is idempotent and always returns nil.
func (s *httpStream) Close() error {
	s.closeOnce.Do(func() {
		s.fail(fmt.Errorf("transport: streamable HTTP connection to %s closed: %w", s.redacted(), jsonrpc.ErrClosed))
		s.mu.Lock()
		sid := s.sessionID
		s.mu.Unlock()
		if sid != "" {
			s.deleteSession()
		}
		s.wg.Wait()
		s.sender.close()
	})
	return nil
}

// fail ends the stream with err unless it already ended.
func (s *httpStream) fail(err error) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	s.termErr = err
	ended := s.pushEnded
	// done is closed (over set) before anything is stopped, so that what
	// fails for being stopped finds the stream's end as the reason (see
	// postFailed).
	s.over.Store(true)
	if s.done != nil {
		close(s.done)
	}
	s.mu.Unlock()
	// The calls and the listener are stopped here: their contexts do not
	// descend from s.ctx (see postCall and startListener). No call is
	// added once ended is set.
	s.mu.Lock()
	s.stopCallsLocked()
	if s.listenerCancel != nil {
		s.listenerCancel()
	}
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if ended != nil {
		ended(err)
	}
}

// lifeCtx returns the stream's lifetime context, made on first use.
func (s *httpStream) lifeCtx() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil {
		s.ctx, s.cancel = context.WithCancel(context.Background())
		if s.ended {
			s.cancel()
		}
	}
	return s.ctx
}

// redacted returns the endpoint for messages, without credentials or query
// values.
func (s *httpStream) redacted() string { return redactURL(s.ep.cfg.URL) }

// openErr returns the terminal error once the stream is over.
func (s *httpStream) openErr() error {
	if s.over.Load() {
		return s.termErr
	}
	return nil
}

// doneChan returns done, made on first use (closed already if the stream
// is over).
func (s *httpStream) doneChan() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done == nil {
		s.done = make(chan struct{})
		if s.over.Load() {
			close(s.done)
		}
	}
	return s.done
}

// queue returns the queue for Read, made on first use.
func (s *httpStream) queue() chan inboundItem {
	s.inboundOnce.Do(func() { s.inbound = make(chan inboundItem, inboundBuffer) })
	return s.inbound
}

// deliver queues a message or decode error for Read, or pushes it. It gives
// up when ctx (a call's or the listener's) or the stream ends.
func (s *httpStream) deliver(ctx context.Context, it inboundItem) bool {
	if t := s.pushTo.Load(); t != nil {
		if ctx.Err() != nil || s.openErr() != nil {
			return false
		}
		return t.to.Receive(it.msg, it.err)
	}
	select {
	case s.queue() <- it:
		return true
	case <-ctx.Done():
		return false
	case <-s.doneChan():
		return false
	}
}

func (s *httpStream) hook(err error) {
	if s.ep.cfg.ErrorHook != nil {
		s.ep.cfg.ErrorHook(err)
	}
}

// deleteSession asks the server to end the session.
func (s *httpStream) deleteSession() {
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	h, _ := s.otherHeaders("", "")
	resp, err := s.sender.do(newHTTPRequest(ctx, http.MethodDelete, s.ep.url, h, nil), nil)
	if err != nil {
		s.hook(s.requestError(http.MethodDelete, "session termination", err))
		return
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
	case resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusMethodNotAllowed:
		// Already gone, or the server does not let clients end sessions.
	default:
		s.hook(newHTTPError(resp, http.MethodDelete))
	}
}
