package auth

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// The errors a caller may branch on. Each reads "auth: short fact"; the
// error that wraps it says where and what to do.
var (
	// ErrInteractionRequired: getting a token needs the user (a browser
	// sign-in), but the Authorizer has no UserAgent (headless mode) and
	// stored credentials ran out. Options.SignInHint says what to do.
	ErrInteractionRequired = errors.New("auth: sign-in needs the user, and the client is headless")
	// ErrCancelled: the user (or the UserAgent on their behalf) cancelled
	// the sign-in, or the authorization server reported access_denied.
	// The Authorizer does not ask again until Reset.
	ErrCancelled = errors.New("auth: sign-in cancelled")
)

// Causes the package tells apart in its own tests; callers read them in
// the message.
var (
	// errTooManyAttempts: three authorizations in a row did not satisfy
	// the server, so the client stopped instead of asking forever.
	errTooManyAttempts = errors.New("auth: still refused after 3 authorizations")
	// errResourceMismatch: the protected resource metadata describes
	// another server than the one being connected to.
	errResourceMismatch = errors.New("auth: resource metadata for another server")
	// errNoPKCE: the authorization server does not offer PKCE with S256,
	// which MCP requires.
	errNoPKCE = errors.New("auth: no PKCE with S256")
	// errNoClientID: there is no way to identify the client: nothing is
	// configured, and the server offers neither client ID metadata
	// documents nor dynamic registration.
	errNoClientID = errors.New("auth: no client ID")
	// errSecretIssuer: the configured client secret is bound to another
	// authorization server than the one the server's metadata names.
	errSecretIssuer = errors.New("auth: client secret bound to another issuer")
	// errWorkloadIssuer: the same for a workload identity token, which
	// another authorization server could replay where it is valid.
	errWorkloadIssuer = errors.New("auth: workload identity token bound to another issuer")
)

// OAuthError is an error reply of an authorization server endpoint (token,
// registration, authorization) or a reply that could not be used. Code and
// Description come from the server and never contain a secret of ours.
type OAuthError struct {
	// Endpoint names the request: "token request", "registration", ...
	Endpoint string
	// URL is the endpoint, redacted.
	URL string
	// StatusCode is the HTTP status, 0 for an authorization response.
	StatusCode int
	// Code is the OAuth error code ("invalid_grant", ...), if any.
	Code string
	// Description is the server's error_description, cleaned and clipped.
	Description string
	// Problem says what was wrong with a reply that had no OAuth error.
	Problem string
}

func (e *OAuthError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "auth: %s", e.Endpoint)
	if e.URL != "" {
		fmt.Fprintf(&b, " at %s", e.URL)
	}
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": HTTP %d", e.StatusCode)
	}
	if e.Code != "" {
		fmt.Fprintf(&b, ": %s", e.Code)
	}
	if e.Description != "" {
		fmt.Fprintf(&b, " (%s)", e.Description)
	}
	if e.Problem != "" {
		fmt.Fprintf(&b, ": %s", e.Problem)
	}
	return b.String()
}

// unwrapURLError drops net/http's *url.Error wrapper, whose message quotes
// the whole URL (query included).
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// jsonProblem describes a JSON decoding error without quoting the input.
func jsonProblem(err error) string {
	return clean(err.Error(), 120)
}

// readLimited reads at most limit bytes; a longer body is an error.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("the reply is larger than %d bytes", limit)
	}
	return b, nil
}
