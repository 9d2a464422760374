package mcp

import (
	"context"
	"time"
)

// Origin says where a server→client request or a notification came from.
// Every handler in ClientOptions (Roots, Sampling, Elicitation) and every
// notification callback receives it in its ctx; read it with OriginOf.
// The ctx is the one place for it, so code that serves many servers (the
// manager hands them all the same handlers) finds the asker the same way
// everywhere.
type Origin struct {
	// Server is ClientOptions.ServerName: the manager sets each
	// server's configured name. "" when the client was given none.
	Server string
	// Client is the session the message arrived on. Calls made on it
	// from a handler go back to the same server.
	Client *Client
}

type originKey struct{}

// OriginOf returns the Origin carried by the ctx of a handler or a
// notification callback; ok is false for any other ctx.
func OriginOf(ctx context.Context) (o Origin, ok bool) {
	p, ok := ctx.Value(originKey{}).(*Origin)
	if !ok {
		return Origin{}, false
	}
	return *p, true
}

// withOrigin adds the client's Origin to a handler's ctx.
func (c *Client) withOrigin(ctx context.Context) context.Context {
	return context.WithValue(ctx, originKey{}, &c.origin)
}

// sessionCtx is the ctx of notification callbacks: it carries the Origin
// and ends when the session ends. It is a Context of its own, over the
// engine's Done channel, so a session costs no goroutine to watch it.
type sessionCtx struct{ c *Client }

func (s sessionCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (s sessionCtx) Done() <-chan struct{}       { return s.c.conn.Done() }

func (s sessionCtx) Err() error {
	select {
	case <-s.c.conn.Done():
		return context.Canceled
	default:
		return nil
	}
}

func (s sessionCtx) Value(key any) any {
	if key == (originKey{}) {
		return &s.c.origin
	}
	return nil
}
