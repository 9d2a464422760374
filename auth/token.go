package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// expirySkew: a token this close to its expiry is treated as expired, so
// that it does not run out on its way to the server.
const expirySkew = 30 * time.Second

// refreshFloor: a token obtained less than this long ago is used until it
// actually expires, even inside expirySkew, and no refresh is started for
// it. A token that lives 30 s or less is inside the skew from the start;
// without the floor, every request would refresh it. A server that
// rejects the token (401) still gets a refresh at once.
const refreshFloor = 10 * time.Second

// Token endpoint client authentication methods (RFC 7591 / OpenID).
const (
	AuthNone              = "none"
	AuthClientSecretBasic = "client_secret_basic"
	AuthClientSecretPost  = "client_secret_post"
	AuthPrivateKeyJWT     = "private_key_jwt"
)

// OAuth grant and token type identifiers used on the wire.
const (
	grantAuthorizationCode = "authorization_code"
	grantRefreshToken      = "refresh_token"
	grantClientCredentials = "client_credentials"
	grantTokenExchange     = "urn:ietf:params:oauth:grant-type:token-exchange"
	grantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	tokenTypeIDToken       = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG         = "urn:ietf:params:oauth:token-type:id-jag"
	assertionTypeJWTBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
)

// tokenReply is a token endpoint's JSON reply (RFC 6749 section 5.1,
// RFC 8693 section 2.2.1).
type tokenReply struct {
	AccessToken     string
	TokenType       string
	RefreshToken    string
	ExpiresIn       int64 // seconds; 0 when absent or unusable
	Scope           string
	IssuedTokenType string
}

// decodeTokenReply parses a successful token reply. expires_in may be a
// number or a numeric string (both are seen in the wild); an unusable
// value is ignored rather than failing a working token.
func decodeTokenReply(body []byte) (*tokenReply, error) {
	var raw struct {
		AccessToken     *string         `json:"access_token"`
		TokenType       string          `json:"token_type"`
		RefreshToken    string          `json:"refresh_token"`
		ExpiresIn       json.RawMessage `json:"expires_in"`
		Scope           string          `json:"scope"`
		IssuedTokenType string          `json:"issued_token_type"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("the reply is not a valid token response: %s", jsonProblem(err))
	}
	if raw.AccessToken == nil || *raw.AccessToken == "" {
		return nil, fmt.Errorf("the reply has no access_token")
	}
	r := &tokenReply{
		AccessToken:     *raw.AccessToken,
		TokenType:       raw.TokenType,
		RefreshToken:    raw.RefreshToken,
		Scope:           raw.Scope,
		IssuedTokenType: raw.IssuedTokenType,
	}
	if len(raw.ExpiresIn) > 0 && string(raw.ExpiresIn) != "null" {
		s := strings.Trim(string(raw.ExpiresIn), `"`)
		if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 && f < 1e10 {
			r.ExpiresIn = int64(f)
		}
	}
	return r, nil
}

// accessToken checks that a reply carries a Bearer access token, or a
// DPoP-bound one when the request carried a proof of key (stored with it
// as keyEncoded), and turns it into a Token.
func (r *tokenReply) accessToken(now time.Time, requested []string, keyEncoded string) (*Token, error) {
	t := &Token{AccessToken: r.AccessToken, RefreshToken: r.RefreshToken}
	switch {
	case r.TokenType == "" || strings.EqualFold(r.TokenType, "Bearer"):
	case strings.EqualFold(r.TokenType, dpopScheme) && keyEncoded != "":
		t.Type, t.DPoPKey = dpopScheme, keyEncoded
	default:
		return nil, fmt.Errorf("the token_type is %q, but MCP servers take Bearer tokens (and DPoP ones, when asked for)", clean(r.TokenType, 40))
	}
	if r.ExpiresIn > 0 {
		t.Expiry = now.Add(time.Duration(r.ExpiresIn) * time.Second)
	}
	if r.Scope != "" {
		t.Scopes = strings.Fields(r.Scope)
	} else {
		t.Scopes = append([]string(nil), requested...)
	}
	return t, nil
}

// Token is an access token and what came with it.
type Token struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"` // zero: the server did not say
	Scopes       []string  `json:"scopes,omitempty"`
	// Type is "DPoP" for a token bound to DPoPKey (RFC 9449), "" for a
	// Bearer token.
	Type string `json:"token_type,omitempty"`
	// DPoPKey is the private key a DPoP token is bound to (PKCS #8,
	// base64url); it is as secret as the refresh token and lives and dies
	// with the token.
	DPoPKey string `json:"dpop_key,omitempty"`
}

// String describes the token without revealing it.
func (t *Token) String() string {
	if t == nil {
		return "no token"
	}
	var b strings.Builder
	if t.Type == dpopScheme {
		b.WriteString("DPoP-bound ")
	}
	b.WriteString("access token [redacted]")
	if !t.Expiry.IsZero() {
		fmt.Fprintf(&b, ", expires %s", t.Expiry.UTC().Format(time.RFC3339))
	}
	if t.RefreshToken != "" {
		b.WriteString(", refresh token [redacted]")
	}
	if len(t.Scopes) > 0 {
		fmt.Fprintf(&b, ", scopes %q", strings.Join(t.Scopes, " "))
	}
	return b.String()
}

// GoString keeps %#v from printing the token.
func (t *Token) GoString() string { return "auth.Token{" + t.String() + "}" }

// Valid reports whether the access token is there and not about to
// expire at now.
func (t *Token) Valid(now time.Time) bool {
	return t != nil && t.AccessToken != "" && (t.Expiry.IsZero() || now.Before(t.Expiry.Add(-expirySkew)))
}

// client is how the client identifies itself at the token endpoint.
type client struct {
	id     string
	secret string // "" for public clients
	method string // one of the Auth* constants
	key    *signingKey
	// audience is the authorization server's issuer, the audience of a
	// private_key_jwt assertion.
	audience string
}

// chooseAuthMethod picks how to authenticate at the token endpoint from
// what the server supports: a private key means private_key_jwt; a
// secret means client_secret_basic where supported (also the RFC 8414
// default when the server lists nothing), else client_secret_post; no
// secret means none.
func chooseAuthMethod(supported []string, hasSecret, hasKey bool) string {
	switch {
	case hasKey:
		return AuthPrivateKeyJWT
	case !hasSecret:
		return AuthNone
	case len(supported) == 0 || slices.Contains(supported, AuthClientSecretBasic):
		return AuthClientSecretBasic
	case slices.Contains(supported, AuthClientSecretPost):
		return AuthClientSecretPost
	case slices.Contains(supported, AuthNone):
		return AuthNone
	}
	return AuthClientSecretBasic
}

// authenticate adds the client's credentials to a token request.
func (c *client) authenticate(form url.Values, h http.Header, now time.Time) error {
	switch c.method {
	case AuthClientSecretBasic:
		// RFC 6749 section 2.3.1: both parts form-encoded before base64.
		cred := url.QueryEscape(c.id) + ":" + url.QueryEscape(c.secret)
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	case AuthClientSecretPost:
		form.Set("client_id", c.id)
		form.Set("client_secret", c.secret)
	case AuthPrivateKeyJWT:
		if c.key == nil {
			return fmt.Errorf("private_key_jwt needs a private key, and none is configured")
		}
		assertion, err := c.key.sign(map[string]any{
			"iss": c.id,
			"sub": c.id,
			"aud": c.audience,
			"iat": now.Unix(),
			"exp": now.Add(5 * time.Minute).Unix(),
			"jti": randomToken(16),
		})
		if err != nil {
			return err
		}
		form.Set("client_id", c.id)
		form.Set("client_assertion_type", assertionTypeJWTBearer)
		form.Set("client_assertion", assertion)
	default: // none: a public client names itself
		form.Set("client_id", c.id)
	}
	return nil
}

// grantToken makes a token request and reads the access token from its
// reply; requested are the scopes asked for, the token's scopes when the
// reply names none.
// With key, the request carries a DPoP proof and the token may come back
// bound to key.
func (a *Authorizer) grantToken(ctx context.Context, what, endpoint string, form url.Values, c *client, key *dpopKey, requested []string, secrets ...string) (*Token, error) {
	r, err := a.tokenRequest(ctx, what, endpoint, form, c, key, secrets...)
	if err != nil {
		return nil, err
	}
	var encoded string
	if key != nil {
		if encoded, err = key.encode(); err != nil {
			return nil, err
		}
	}
	tok, err := r.accessToken(a.now(), requested, encoded)
	if err != nil {
		return nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), Problem: err.Error()}
	}
	return tok, nil
}

// tokenRequest posts form to a token endpoint with the client's
// credentials and decodes the reply. what names the request in errors.
// secrets are values that must not come back in an error even if the
// server echoes them. With key, the request carries a DPoP proof, and a
// use_dpop_nonce answer is tried once more with the server's nonce
// (RFC 9449 section 8).
func (a *Authorizer) tokenRequest(ctx context.Context, what, endpoint string, form url.Values, c *client, key *dpopKey, secrets ...string) (*tokenReply, error) {
	if key == nil {
		return a.tokenRequestOnce(ctx, what, endpoint, form, c, nil, secrets...)
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), Problem: "invalid endpoint URL"}
	}
	for try := 0; ; try++ {
		nonce := a.nonceFor(u)
		proof, err := key.proof(http.MethodPost, u, nonce, "", a.now())
		if err != nil {
			return nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), Problem: "making the DPoP proof: " + err.Error()}
		}
		r, err := a.tokenRequestOnce(ctx, what, endpoint, form, c, http.Header{dpopHeader: {proof}}, secrets...)
		var oe *OAuthError
		if try == 0 && errors.As(err, &oe) && oe.Code == errUseDPoPNonce && a.nonceFor(u) != nonce {
			continue // postOAuth kept the nonce the server sent
		}
		return r, err
	}
}

// tokenRequestOnce is one token request, with the extra headers.
func (a *Authorizer) tokenRequestOnce(ctx context.Context, what, endpoint string, form url.Values, c *client, extra http.Header, secrets ...string) (*tokenReply, error) {
	h := http.Header{}
	for k, vs := range extra {
		for _, v := range vs {
			h.Add(k, v)
			secrets = append(secrets, v) // a DPoP proof is not for echoing either
		}
	}
	if c != nil {
		if err := c.authenticate(form, h, a.now()); err != nil {
			return nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), Problem: err.Error()}
		}
		secrets = append(secrets, c.secret, form.Get("client_assertion"))
		if basic := h.Get("Authorization"); basic != "" {
			// client_secret_basic: the header value and the base64 in it
			// are the secret in another form.
			secrets = append(secrets, basic, strings.TrimSpace(strings.TrimPrefix(basic, "Basic ")))
		}
	}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	status, raw, err := a.postOAuth(ctx, what, endpoint, strings.NewReader(form.Encode()), h, secrets, http.StatusOK)
	if err != nil {
		return nil, err
	}
	r, err := decodeTokenReply(raw)
	if err != nil {
		return nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), StatusCode: status, Problem: err.Error()}
	}
	return r, nil
}

// postOAuth POSTs body with headers h (its Content-Type set) to an
// authorization server's endpoint and returns the reply when its status is
// one of ok. Every error is an *OAuthError for what (or ctx's error) with
// secrets scrubbed from it.
func (a *Authorizer) postOAuth(ctx context.Context, what, endpoint string, body io.Reader, h http.Header, secrets []string, ok ...int) (status int, raw []byte, err error) {
	secrets = append(secrets, a.heldSecrets()...)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, body)
	if err != nil {
		return 0, nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), Problem: "invalid endpoint URL"}
	}
	req.Header = h
	req.Header.Set("Accept", "application/json")
	resp, err := a.post.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, ctx.Err()
		}
		return 0, nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), Problem: scrub(unwrapURLError(err).Error(), secrets)}
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return 0, nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), StatusCode: resp.StatusCode, Problem: errRedirected}
	}
	if nonce, ok := replyNonce(resp.Header); ok && req.Header.Get(dpopHeader) != "" {
		a.setNonce(req.URL, nonce) // RFC 9449 section 8: for the next proof
	}
	raw, err = readLimited(resp.Body, maxMetadataSize)
	if err != nil {
		return 0, nil, &OAuthError{Endpoint: what, URL: redactURL(endpoint), StatusCode: resp.StatusCode, Problem: "reading the reply: " + scrub(err.Error(), secrets)}
	}
	if !slices.Contains(ok, resp.StatusCode) {
		return 0, nil, replyError(what, endpoint, resp.StatusCode, raw, secrets)
	}
	return resp.StatusCode, raw, nil
}

// replyError turns a failed reply into an *OAuthError, with the server's
// error code and description when the body has them (RFC 6749 section
// 5.2).
func replyError(what, endpoint string, status int, body []byte, secrets []string) *OAuthError {
	e := &OAuthError{Endpoint: what, URL: redactURL(endpoint), StatusCode: status}
	var oe struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &oe) == nil && oe.Error != "" {
		e.Code = clean(scrub(oe.Error, secrets), 60)
		e.Description = clean(scrub(oe.Description, secrets), 200)
	} else {
		e.Problem = "the reply is not an OAuth error response"
	}
	return e
}

// heldSecrets lists every credential the Authorizer holds: the configured
// client secret, a registered client's secret, and the current access and
// refresh tokens (from the store or just obtained). Errors built from a
// server's text are scrubbed of them.
func (a *Authorizer) heldSecrets() []string {
	out := []string{a.opts.ClientSecret}
	if e := a.opts.Enterprise; e != nil {
		out = append(out, e.ClientSecret)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if reg := a.rec.Registration; reg != nil {
		out = append(out, reg.ClientSecret)
	}
	if t := a.rec.Token; t != nil {
		out = append(out, t.AccessToken, t.RefreshToken)
	}
	return out
}

// scrub replaces every occurrence of a secret in s, in case a server
// echoes one back in an error.
func scrub(s string, secrets []string) string {
	for _, v := range secrets {
		if len(v) >= 4 {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}
