package auth

import (
	"context"
	"fmt"
	"strings"
)

// IssuerChangedError: a credential bound to one authorization server (a
// configured client secret, a workload identity token) would have gone to
// another, because the server's metadata now names another issuer.
// Nothing was sent there. The binding is kept through Logout, so signing
// out and in again does not move it; only a deliberate acceptance does
// (Options.AcceptIssuer, or a configured ClientSecretIssuer).
type IssuerChangedError struct {
	// Server is the MCP server, redacted.
	Server string
	// Credential names what is bound: "client secret" or "workload
	// identity token".
	Credential string
	// Bound is the issuer the credential belongs to; Named the one the
	// server's metadata names now (both redacted).
	Bound, Named string
	// Configured: Bound comes from the configuration
	// (Options.ClientSecretIssuer, the oauth block's "issuer"), not from
	// the record of its first use.
	Configured bool
	// Accepted is Options.AcceptIssuer when it was set but named neither.
	Accepted string
	// Hint says how to accept Named deliberately.
	Hint string

	kind error // errSecretIssuer or errWorkloadIssuer
}

func (e *IssuerChangedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "auth: the authorization server of %s changed from %s to %s; its %s belongs to %s, so it is not sent to %s",
		e.Server, e.Bound, e.Named, e.Credential, e.Bound, e.Named)
	if e.Accepted != "" {
		fmt.Fprintf(&b, " (the issuer accepted, %s, is not the one named)", e.Accepted)
	}
	fmt.Fprintf(&b, ". If %s is right, accept it deliberately: %s", e.Named, e.Hint)
	return b.String()
}

// Unwrap makes errors.Is tell a client secret from a workload token.
func (e *IssuerChangedError) Unwrap() error { return e.kind }

// sameIssuer compares issuers as the binding does: a trailing slash is
// not a change of authorization server.
func sameIssuer(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// bindTo checks that a credential of the configuration may go to issuer:
// the issuer configured (ClientSecretIssuer), else the one recorded at
// the credential's first use, recorded now if there is none yet. A
// recorded binding moves only to Options.AcceptIssuer; a configured one
// only with the configuration. kind is the error for a mismatch.
func (a *Authorizer) bindTo(ctx context.Context, issuer string, kind error) error {
	configured := a.opts.ClientSecretIssuer
	bound := configured
	if bound == "" {
		a.mu.Lock()
		bound = a.rec.SecretIssuer
		a.mu.Unlock()
	}
	if bound == "" {
		a.commit(ctx, func(r *Record) { r.SecretIssuer = issuer })
		return nil
	}
	if sameIssuer(bound, issuer) {
		return nil
	}
	accept := a.opts.AcceptIssuer
	if configured == "" && accept != "" && sameIssuer(accept, issuer) {
		a.logf("auth: %s: the credentials' authorization server moves from %s to %s, as accepted", a.redacted, redactURL(bound), redactURL(issuer))
		a.commit(ctx, func(r *Record) { r.SecretIssuer = issuer })
		return nil
	}
	e := &IssuerChangedError{
		Server: a.redacted, Credential: "client secret",
		Bound: redactURL(bound), Named: redactURL(issuer),
		Configured: configured != "", kind: kind,
	}
	if kind == errWorkloadIssuer {
		e.Credential = "workload identity token"
	}
	if accept != "" && !sameIssuer(accept, issuer) {
		e.Accepted = redactURL(accept)
	}
	e.Hint = a.acceptHint(e)
	return e
}

// acceptHint says how to accept the issuer a server names now: with
// Options.AcceptIssuerHint when set, else in the terms of Options.
func (a *Authorizer) acceptHint(e *IssuerChangedError) string {
	if h := a.opts.AcceptIssuerHint; h != nil {
		return h(e.Named, e.Configured)
	}
	if e.Configured {
		return "set ClientSecretIssuer (the oauth block's \"issuer\") to it; it is " + e.Bound + " now"
	}
	return "sign in with Options.AcceptIssuer set to it, or set ClientSecretIssuer (the oauth block's \"issuer\") to it"
}
