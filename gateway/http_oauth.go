package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// OAuthOptions make the HTTP endpoint an OAuth 2.1 resource server, as the
// MCP authorization spec describes: hosts find the authorization server
// through the protected-resource metadata (RFC 9728) and send JWT access
// tokens, which are checked against the server's keys.
type OAuthOptions struct {
	// Issuer is the authorization server's issuer URL; a token's "iss"
	// must equal it.
	Issuer string
	// Audience must be among a token's "aud" values: this gateway's
	// resource identifier, as the authorization server issues it.
	Audience string
	// JWKSURL is where the server's keys are; empty reads jwks_uri from
	// the issuer's metadata.
	JWKSURL string
	// Client fetches metadata and keys; nil uses one with a 10 s timeout.
	Client *http.Client
}

// clockSkew is how far the gateway's and the issuer's clocks may
// disagree on exp and nbf.
const clockSkew = time.Minute

// peerHTTP is the Peer of a request no authentication named.
const peerHTTP = "\x00http"

type peerKey struct{}

// withPeer marks r as sent by who.
func withPeer(r *http.Request, who string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), peerKey{}, who))
}

// peerOf is the core's HTTPOptions.Peer: who the authentication said sent
// r, else peerHTTP.
func peerOf(r *http.Request) string {
	if who, ok := r.Context().Value(peerKey{}).(string); ok && who != "" {
		return who
	}
	return peerHTTP
}

// withoutCredentials is r without its Authorization header: the host's
// credential is the gateway's, never an upstream's.
func withoutCredentials(r *http.Request) *http.Request {
	h := r.Header.Clone()
	h.Del("Authorization")
	r2 := r.Clone(r.Context())
	r2.Header = h
	return r2
}

// oauthCheck lets through requests with a valid JWT access token.
type oauthCheck struct {
	issuer, audience string
	keys             *keySet
	now              func() time.Time
	next             http.Handler
}

func newOAuthCheck(o *OAuthOptions, next http.Handler) *oauthCheck {
	client := o.Client
	if client == nil {
		client = keyClient()
	}
	return &oauthCheck{
		issuer: o.Issuer, audience: o.Audience, now: time.Now, next: next,
		keys: &keySet{client: client, issuer: o.Issuer, url: o.JWKSURL, floor: jwksRefetchFloor, now: time.Now},
	}
}

func (c *oauthCheck) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		// No credential: the challenge only says where to get one
		// (RFC 6750 3.1: no error code for a request without a token).
		c.challenge(w, r, "")
		return
	}
	sub, err := c.verify(r.Context(), strings.TrimSpace(token))
	if err != nil {
		c.challenge(w, r, err.Error())
		return
	}
	c.next.ServeHTTP(w, withPeer(withoutCredentials(r), sub))
}

// verify checks the token and returns who it names: its subject, else
// its client_id.
func (c *oauthCheck) verify(ctx context.Context, token string) (string, error) {
	p, err := parseJWT(token)
	if err != nil {
		return "", err
	}
	key, err := c.keys.key(ctx, p.header.Kid)
	if err != nil {
		return "", err
	}
	if err := p.verifySignature(key); err != nil {
		return "", err
	}
	if err := p.claims.check(c.issuer, c.audience, c.now(), clockSkew); err != nil {
		return "", err
	}
	if p.claims.Subject != "" {
		return p.claims.Subject, nil
	}
	if p.claims.ClientID != "" {
		return p.claims.ClientID, nil
	}
	return "token", nil
}

// challenge answers 401 with the WWW-Authenticate the MCP authorization
// spec asks for: where the protected-resource metadata is, and for a
// token that failed, error="invalid_token" and why (never the token).
func (c *oauthCheck) challenge(w http.ResponseWriter, r *http.Request, why string) {
	v := `Bearer resource_metadata="` + resourceMetadataURL(r) + `"`
	if why != "" {
		v += `, error="invalid_token", error_description="` + strings.ReplaceAll(why, `"`, `'`) + `"`
	}
	w.Header().Set("WWW-Authenticate", v)
	msg := "Unauthorized: send an access token from " + c.issuer + " as Authorization: Bearer TOKEN"
	if why != "" {
		msg = "Unauthorized: " + why
	}
	http.Error(w, msg, http.StatusUnauthorized)
}

// resourceMetadataPath is where the protected-resource metadata is served
// (RFC 9728 3.1); the form with the endpoint's path appended is served too.
const resourceMetadataPath = "/.well-known/oauth-protected-resource"

// origin is the scheme and host a host reached the gateway at: https when
// the connection, or the load balancer in front, says so.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func resourceMetadataURL(r *http.Request) string {
	return requestOrigin(r) + resourceMetadataPath + "/mcp"
}

// serveResourceMetadata answers the RFC 9728 document: the resource (the
// /mcp endpoint) and the authorization server that issues its tokens.
func (c *oauthCheck) serveResourceMetadata(w http.ResponseWriter, r *http.Request) {
	b, _ := json.Marshal(map[string]any{
		"resource":                 requestOrigin(r) + "/mcp",
		"authorization_servers":    []string{c.issuer},
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "mcpwire serve",
	})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=3600")
	_, _ = w.Write(b)
}
