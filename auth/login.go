package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ErrNotProtected: the server neither challenges an unauthenticated
// request nor publishes protected resource metadata, so there is nothing
// to sign in to.
var ErrNotProtected = errors.New("auth: the server asks for no authorization")

// probeBody is what Login and Prepare post to find out whether the
// server wants authorization: a ping, which creates no session.
const probeBody = `{"jsonrpc":"2.0","id":"mcpwire-auth-probe","method":"ping"}`

// Login signs in now, whatever is stored: it asks the server for its
// challenge with an unauthenticated request, then discovers and
// authorizes as for a 401 (for "mcpwire login"). It clears a previous
// cancellation. ErrNotProtected means the server needs no sign-in.
func (a *Authorizer) Login(ctx context.Context) error {
	a.Reset()
	ch, challenged, status, err := a.probeWith(ctx, http.MethodPost)
	if err == nil && !challenged && (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) {
		// A legacy HTTP+SSE endpoint may take only GET, and may check
		// credentials only there: ask the way its clients connect.
		ch, challenged, status, err = a.probeWith(ctx, http.MethodGet)
	}
	if err != nil {
		return err
	}
	return a.exclusive(ctx, func() error {
		d, err := a.discoverForLogin(ctx, ch, challenged, status)
		if err != nil {
			return err
		}
		// Not a step-up: the scopes held do not count, nor the record.
		return a.obtain(ctx, d, a.scopesFor(d, ch, nil))
	})
}

// Prepare makes sure a token is at hand before a connection starts, so
// that a sign-in happens under the caller's ctx (a person may take
// minutes) rather than under one request's timeout. With a usable or
// refreshable token it does nothing more; otherwise it probes the server
// and, if the server challenges, authorizes. A server that does not
// challenge is fine: nil.
func (a *Authorizer) Prepare(ctx context.Context) error {
	tok, err := a.token(ctx)
	if err != nil || tok != "" {
		return err
	}
	ch, challenged, err := a.probe(ctx)
	if err != nil || !challenged {
		return err
	}
	return a.exclusive(ctx, func() error {
		if a.currentToken() != "" {
			return nil // a concurrent request got one meanwhile
		}
		a.mu.Lock()
		cancelled := a.cancelled
		a.mu.Unlock()
		if cancelled != nil {
			return cancelled
		}
		return a.satisfy(ctx, ch, false, false)
	})
}

// exclusive runs fn as the one flight, after any flight in progress.
func (a *Authorizer) exclusive(ctx context.Context, fn func() error) error {
	for {
		a.mu.Lock()
		a.loadLocked(ctx)
		if f := a.flight; f != nil {
			a.mu.Unlock()
			if err := a.await(ctx, f); err != nil {
				return err
			}
			continue
		}
		f := a.startFlightLocked()
		a.mu.Unlock()
		err := fn()
		a.endFlight(f, err)
		return err
	}
}

func (a *Authorizer) currentToken() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.usableLocked()
}

// discoverForLogin discovers as for a challenge; without one, only a
// server that publishes resource metadata is signed in to (guessing the
// 2025-03-26 endpoints of a server that never asked would send the user
// to pages that do not exist). status is the probe's HTTP status: a 404
// there and no metadata means no server at that URL, which is an error
// (a mistyped path), not "nothing to sign in to".
func (a *Authorizer) discoverForLogin(ctx context.Context, ch Challenge, challenged bool, status int) (*discovery, error) {
	if challenged {
		return a.discover(ctx, ch.Param("resource_metadata"))
	}
	prm, _, err := a.discoverResource(ctx, "")
	if err != nil {
		return nil, err
	}
	if prm == nil && status == http.StatusNotFound {
		return nil, fmt.Errorf("auth: %s answered HTTP 404 Not Found and publishes no protected resource metadata: no MCP server is at that URL (check its path; servers usually listen at /mcp or /sse)", a.redacted)
	}
	if prm == nil {
		return nil, fmt.Errorf("%w: %s answered without a challenge and publishes no protected resource metadata", ErrNotProtected, a.redacted)
	}
	return a.discover(ctx, "")
}

// probe posts a ping without credentials and returns the Bearer challenge
// of a 401 reply.
func (a *Authorizer) probe(ctx context.Context) (Challenge, bool, error) {
	ch, challenged, _, err := a.probeWith(ctx, http.MethodPost)
	return ch, challenged, err
}

// probeWith asks the server without credentials, with a POSTed ping or a
// GET for an event stream, and returns the Bearer challenge of a 401
// reply and the reply's status.
func (a *Authorizer) probeWith(ctx context.Context, method string) (Challenge, bool, int, error) {
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader(probeBody)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.server.String(), body)
	if err != nil {
		return Challenge{}, false, 0, fmt.Errorf("auth: %s: %w", a.redacted, err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	} else {
		req.Header.Set("Accept", "text/event-stream")
	}
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	resp, err := a.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Challenge{}, false, 0, ctx.Err()
		}
		return Challenge{}, false, 0, fmt.Errorf("auth: reaching %s: %w", a.redacted, unwrapURLError(err))
	}
	if method == http.MethodPost {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	} // a GET may have opened an event stream that never ends: not read
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return Challenge{}, false, resp.StatusCode, nil
	}
	ch, ours := oauthChallenge(resp.Header)
	if !ours {
		return Challenge{}, false, resp.StatusCode, nil // another scheme: not an OAuth server
	}
	return ch, true, resp.StatusCode, nil
}
