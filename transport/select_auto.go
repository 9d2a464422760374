package transport

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/mcpwire/mcpwire/internal/renewhook"
	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Auto reaches a server whose transport is not configured: it speaks
// Streamable HTTP and falls back to the legacy HTTP+SSE transport when the
// server answers the first POST (the initialize request) with 400, 404 or
// 405, as the MCP specification advises. It never falls back on 401 or
// 403: those are about authorization, and the *HTTPError is returned.
//
// A 400 whose body is a JSON-RPC error is an answer from a server that
// speaks JSON-RPC over POST at this URL; StreamableHTTP delivers it as the
// initialize response and Auto does not fall back.
//
// A client that negotiates the protocol era sends server/discover first;
// when Streamable HTTP refuses it with 400, 404 or 405 the choice waits for
// the initialize that follows (the 2026-07-28 revision's fallback).
//
// The zero value of every field but URL is usable.
type Auto struct {
	// URL is tried with Streamable HTTP first.
	URL string
	// LegacyURL is where to open the legacy SSE stream on fallback; empty
	// means URL. Legacy servers usually serve it at a path such as /sse.
	LegacyURL string
	// Headers, Auth, HTTPClient and MaxEventSize are passed to whichever
	// transport is used (see StreamableHTTP and SSE), MaxBodySize to
	// Streamable HTTP (legacy SSE replies are events).
	Headers      http.Header
	Auth         Authorizer
	HTTPClient   *http.Client
	MaxEventSize int
	MaxBodySize  int64
	// OnFallback, if set, is called with the Streamable HTTP error when the
	// connection moves to legacy SSE, so that callers can log it or
	// remember the choice. It runs in the Write that decided.
	OnFallback func(streamableErr error)
}

var _ Transport = (*Auto)(nil)

// Connect validates the configuration and returns a stream that chooses
// its transport at the first Write. Like StreamableHTTP's, it does no
// network I/O itself.
//
// The stream implements jsonrpc.Stream, readmode.Pusher, SessionIDer and
// seam.ProtocolVersionSetter (the last two apply to Streamable HTTP only).
func (a *Auto) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	u, err := parseHTTPURL("HTTP", a.URL)
	if err != nil {
		return nil, err
	}
	if a.LegacyURL != "" {
		if _, err := parseHTTPURL("legacy SSE", a.LegacyURL); err != nil {
			return nil, err
		}
	}
	if err := checkHeaderValues(a.Headers, u); err != nil {
		return nil, err
	}
	cfg := *a
	cfg.Headers = a.Headers.Clone()
	primary, err := (&StreamableHTTP{
		URL:          cfg.URL,
		Headers:      cfg.Headers,
		Auth:         cfg.Auth,
		HTTPClient:   cfg.HTTPClient,
		MaxEventSize: cfg.MaxEventSize,
		MaxBodySize:  cfg.MaxBodySize,
	}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(context.Background())
	return &autoStream{
		cfg:      cfg,
		redacted: redactParsedURL(u),
		primary:  primary,
		probe:    make(chan struct{}, 1),
		decided:  make(chan struct{}),
		ctx:      sctx,
		cancel:   cancel,
	}, nil
}

// autoStream defers the choice of transport to the first Write.
//
// Concurrency: the first Write holds probe while it decides; other Writes
// wait for it (or their ctx). Read waits until a transport was chosen.
// After that every call goes straight to the chosen stream. A pushing
// stream (Push) is not read: the chosen stream pushes, or the pump does.
type autoStream struct {
	cfg      Auto
	redacted string
	primary  jsonrpc.Stream // the Streamable HTTP stream

	probe   chan struct{} // one-slot lock held while deciding
	decided chan struct{} // closed once chosen is set
	ctx     context.Context
	cancel  context.CancelFunc // ends the stream (Close)

	mu     sync.Mutex
	chosen jsonrpc.Stream
	closed bool
	// push is the engine's, once it asked for messages to be pushed
	// (Push); movedOn is set when the Streamable HTTP stream is given up
	// for legacy SSE, so that its end is not the connection's.
	push    *autoPush
	movedOn bool

	wg        sync.WaitGroup // the legacy pump (see pump)
	closeOnce sync.Once
}

// autoPush is where the engine takes pushed messages (see readmode.Pusher).
type autoPush struct {
	to    receiver
	ended func(error)
}

var _ pusher = (*autoStream)(nil)

func (s *autoStream) current() jsonrpc.Stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chosen
}

func (s *autoStream) closedErr() error {
	return fmt.Errorf("transport: %s: %w", s.redacted, jsonrpc.ErrClosed)
}

// Write sends msg. The first one (the initialize request) decides the
// transport; see Auto. A server/discover that Streamable HTTP refuses with
// 400, 404 or 405 decides nothing: it is the probe of a client that
// negotiates the era, and initialize follows.
func (s *autoStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	if c := s.current(); c != nil {
		return c.Write(ctx, msg)
	}
	select {
	case s.probe <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.ctx.Done():
		return s.closedErr()
	}
	defer func() { <-s.probe }()
	if c := s.current(); c != nil {
		return c.Write(ctx, msg) // decided while this Write waited
	}
	if s.ctx.Err() != nil {
		return s.closedErr()
	}
	err := s.primary.Write(ctx, msg)
	if err == nil {
		s.choose(s.primary)
		return nil
	}
	if !IsHTTPStatus(err, http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed) {
		return err
	}
	if isEraProbe(msg) {
		// A legacy server refused the 2026-07-28 client's server/discover:
		// the client goes on with initialize, which decides as before.
		return err
	}
	return s.fallBack(ctx, msg, err)
}

// isEraProbe reports whether msg is a server/discover request.
func isEraProbe(msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	return ok && req.Method == "server/discover"
}

// fallBack connects legacy SSE after Streamable HTTP refused msg with
// streamableErr, and sends msg there.
func (s *autoStream) fallBack(ctx context.Context, msg jsonrpc.Message, streamableErr error) error {
	legacyURL := s.cfg.LegacyURL
	if legacyURL == "" {
		legacyURL = s.cfg.URL
	}
	// Close must be able to abort the fallback's GET.
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	legacy, err := (&SSE{
		URL:          legacyURL,
		Headers:      s.cfg.Headers,
		Auth:         s.cfg.Auth,
		HTTPClient:   s.cfg.HTTPClient,
		MaxEventSize: s.cfg.MaxEventSize,
	}).Connect(lctx)
	if err != nil {
		if s.ctx.Err() != nil {
			return s.closedErr()
		}
		return fmt.Errorf("transport: %s speaks neither Streamable HTTP (%w) nor legacy SSE (%w)", s.redacted, streamableErr, err)
	}
	if err := legacy.Write(ctx, msg); err != nil {
		legacy.Close()
		return fmt.Errorf("transport: falling back to legacy SSE for %s: %w", s.redacted, err)
	}
	s.mu.Lock()
	s.movedOn = true
	s.mu.Unlock()
	s.primary.Close()
	if !s.choose(legacy) {
		legacy.Close()
		return s.closedErr()
	}
	if s.cfg.OnFallback != nil {
		s.cfg.OnFallback(streamableErr)
	}
	return nil
}

// choose records the transport; false means the stream was closed first.
// A pushing connection that moved to legacy SSE gets its pump.
func (s *autoStream) choose(c jsonrpc.Stream) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.chosen = c
	close(s.decided)
	if s.push != nil && c != s.primary {
		s.wg.Add(1)
		go s.pump(c, s.push)
	}
	return true
}

// Push hands the messages of whichever transport is chosen straight to the
// engine (see readmode.Pusher). Streamable HTTP pushes by itself; legacy
// SSE, chosen on fallback, does not, so a goroutine of this stream reads
// it and passes on what it reads (see pump).
func (s *autoStream) Push(to receiver, ended func(error)) {
	s.mu.Lock()
	s.push = &autoPush{to: to, ended: ended}
	s.mu.Unlock()
	s.primary.(pusher).Push(to, s.primaryEnded)
}

// primaryEnded passes on the end of the Streamable HTTP stream, unless the
// connection moved to legacy SSE, which closed it.
func (s *autoStream) primaryEnded(err error) {
	s.mu.Lock()
	movedOn, ended := s.movedOn, s.push.ended
	s.mu.Unlock()
	if !movedOn {
		ended(err)
	}
}

// pump reads the legacy SSE stream and pushes what it reads, until the
// stream or the connection ends.
func (s *autoStream) pump(from jsonrpc.Stream, p *autoPush) {
	defer s.wg.Done()
	for {
		msg, err := from.Read(s.ctx)
		if err != nil && !jsonrpc.IsDecodeError(err) {
			if s.ctx.Err() != nil {
				err = s.closedErr()
			}
			p.ended(err)
			return
		}
		if !p.to.Receive(msg, err) {
			return
		}
	}
}

// Read waits until the first Write chose a transport, then reads from it.
func (s *autoStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-s.decided:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.ctx.Done():
		return nil, s.closedErr()
	}
	return s.current().Read(ctx)
}

// Close closes whichever streams exist; it is idempotent.
func (s *autoStream) Close() error {
	s.closeOnce.Do(func() {
		s.cancel()
		s.mu.Lock()
		s.closed = true
		chosen := s.chosen
		s.mu.Unlock()
		s.primary.Close()
		if chosen != nil && chosen != s.primary {
			chosen.Close()
		}
		s.wg.Wait()
	})
	return nil
}

// SessionID returns the Streamable HTTP session id, "" otherwise.
func (s *autoStream) SessionID() string {
	if c, ok := s.current().(SessionIDer); ok {
		return c.SessionID()
	}
	return ""
}

// SetRenewalHook passes the client's renewal hook to Streamable HTTP (see
// internal/renewhook); the legacy transport has no sessions to renew.
func (s *autoStream) SetRenewalHook(fn func(ctx context.Context)) {
	if c, ok := s.current().(renewhook.Hooker); ok {
		c.SetRenewalHook(fn)
	}
}

// HoldListener and ReleaseListener pass on to Streamable HTTP (see
// seam.ListenerHolder); the legacy transport's event stream is its only way
// to receive, so it is never held.
func (s *autoStream) HoldListener() {
	if c, ok := s.preferred().(seam.ListenerHolder); ok {
		c.HoldListener()
	}
}

func (s *autoStream) ReleaseListener(ctx context.Context) {
	if c, ok := s.preferred().(seam.ListenerHolder); ok {
		c.ReleaseListener(ctx)
	}
}

// preferred is the stream chosen, or Streamable HTTP before the choice.
func (s *autoStream) preferred() jsonrpc.Stream {
	if c := s.current(); c != nil {
		return c
	}
	return s.primary
}

// SetProtocolVersion passes the negotiated version to Streamable HTTP; the
// legacy transport has no use for it. Before the choice it goes to
// Streamable HTTP, which the first Write tries: a stateless-era client
// sets its version before its first request, whose headers depend on it.
func (s *autoStream) SetProtocolVersion(version string) {
	if c, ok := s.preferred().(seam.ProtocolVersionSetter); ok {
		c.SetProtocolVersion(version)
	}
}
