package mcp

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// SessionState is what a client set up on the server's side of a session
// and what a new session must be told again: the resources subscribed to
// and the log level asked for.
type SessionState struct {
	// Subscriptions are the URIs of SubscribeResource, in the order
	// they were first subscribed.
	Subscriptions []string
	// LogLevel is the level of the last SetLogLevel; "" if none.
	LogLevel LoggingLevel
}

// sessionState records SessionState as calls succeed. A Client makes it
// on the first such call (see setUp): an idle session that never
// subscribed nor set a level holds none.
type sessionState struct {
	mu       sync.Mutex
	subs     []string
	logLevel LoggingLevel
}

func (s *sessionState) subscribed(uri string) {
	s.mu.Lock()
	if !slices.Contains(s.subs, uri) {
		s.subs = append(s.subs, uri)
	}
	s.mu.Unlock()
}

func (s *sessionState) unsubscribed(uri string) {
	s.mu.Lock()
	s.subs = slices.DeleteFunc(s.subs, func(u string) bool { return u == uri })
	s.mu.Unlock()
}

func (s *sessionState) leveled(l LoggingLevel) {
	s.mu.Lock()
	s.logLevel = l
	s.mu.Unlock()
}

// SessionState returns what the client set up on the server: pass it as
// ClientOptions.Restore to a client that replaces this one. Over
// Streamable HTTP the client itself sets it up again on a renewed
// session, before any other request reaches the new session.
func (c *Client) SessionState() SessionState {
	s := c.state.Load()
	if s == nil {
		return SessionState{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return SessionState{Subscriptions: slices.Clone(s.subs), LogLevel: s.logLevel}
}

// setUp returns the session state to record into, made on first use.
func (c *Client) setUp() *sessionState { return madeOnUse(&c.state) }

// subscriptions returns a copy of the URIs subscribed to.
func (c *Client) subscriptions() []string {
	s := c.state.Load()
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.subs)
}

// madeOnUse returns *p, storing a new T there first if it is nil; of
// callers racing on the first use, all get the one stored.
func madeOnUse[T any](p *atomic.Pointer[T]) *T {
	if v := p.Load(); v != nil {
		return v
	}
	p.CompareAndSwap(nil, new(T))
	return p.Load()
}

// restore sets up st on the server: the log level first, so that what the
// subscriptions bring is logged as asked. Each failure goes to the
// ErrorHook; what succeeded is remembered for the next renewal.
func (c *Client) restore(ctx context.Context, st *SessionState) {
	if st.LogLevel != "" {
		if err := c.SetLogLevel(ctx, st.LogLevel); err != nil {
			c.report(wrapf(err, "setting the log level again on a new session"))
		}
	}
	for _, uri := range st.Subscriptions {
		if err := c.SubscribeResource(ctx, uri); err != nil {
			c.report(wrapf(err, "subscribing again on a new session"))
		}
	}
}

// restoreAfterRenewal is the transport's renewal hook: the new session
// gets the old one's state before the transport lets other requests
// through. ctx marks these requests as the hook's.
func (c *Client) restoreAfterRenewal(ctx context.Context) {
	st := c.SessionState()
	c.restore(ctx, &st)
}
