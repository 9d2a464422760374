package auth

import (
	"context"
	"net/url"
)

// UserAgent is the front channel of the authorization code flow: it takes
// the user to the authorization server and brings back the answer that
// the server sends to the redirect URI. A browser with a loopback
// redirect (Loopback) is the usual one; tests and automated clients plug
// in their own.
type UserAgent interface {
	// Open prepares to receive one authorization response (a loopback
	// agent starts listening here) and returns the Callback that will
	// receive it. The Authorizer closes the Callback when done.
	Open(ctx context.Context) (Callback, error)
}

// Callback is one pending authorization response.
type Callback interface {
	// RedirectURI is where the authorization server must send the user
	// back; it is registered with the server and sent in the request.
	RedirectURI() string
	// Await sends the user to authURL and waits for the server's
	// redirect to RedirectURI, returning its query parameters (code and
	// state, or error). A user who gives up should make Await return an
	// error wrapping ErrCancelled. Await honours ctx.
	Await(ctx context.Context, authURL string) (url.Values, error)
	// Close releases what Open acquired. It is called once, after Await
	// or instead of it.
	Close() error
}
