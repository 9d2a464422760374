package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// authorizationCode runs the authorization code flow with PKCE through the
// UserAgent.
func (a *Authorizer) authorizationCode(ctx context.Context, d *discovery, scopes []string, key *dpopKey) (*Token, *client, error) {
	as := d.as
	if !as.supportsPKCE() {
		return nil, nil, fmt.Errorf("%w: %s lists code_challenge_methods_supported %q; refusing to authorize without it",
			errNoPKCE, as.Issuer, as.CodeChallengeMethodsSupported)
	}
	if as.AuthorizationEndpoint == "" {
		return nil, nil, fmt.Errorf("auth: authorization server %s has no authorization_endpoint for signing in", as.Issuer)
	}
	// A configured secret bound to another issuer is reported before a
	// sign-in is asked for: signing in again would not help.
	if err := a.bindSecret(ctx, as.Issuer); err != nil {
		return nil, nil, err
	}
	if a.opts.UserAgent == nil {
		if hint := a.opts.SignInHint; hint != "" {
			return nil, nil, fmt.Errorf("%w: %s; %s", ErrInteractionRequired, a.redacted, hint)
		}
		return nil, nil, fmt.Errorf("%w: %s", ErrInteractionRequired, a.redacted)
	}
	cb, err := a.openUserAgent(ctx, as.Issuer)
	if err != nil {
		return nil, nil, err
	}
	defer cb.Close()
	redirect := cb.RedirectURI()
	c, err := a.clientFor(ctx, d, redirect)
	if err != nil {
		return nil, nil, err
	}
	p := newPKCE()
	state := randomToken(24)
	q := formValues(
		"response_type", "code",
		"client_id", c.id,
		"redirect_uri", redirect,
		"code_challenge", p.challenge,
		"code_challenge_method", "S256",
		"state", state,
		"resource", d.resource,
	)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	authURL, err := withQuery(as.AuthorizationEndpoint, q)
	if err != nil {
		return nil, nil, err
	}
	a.logf("auth: signing in to %s at %s", a.redacted, as.Issuer)
	vals, err := cb.Await(ctx, authURL)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("auth: signing in to %s: %w", a.redacted, err)
	}
	// The state comes first: a response that is not the answer to this
	// request says nothing, its error included (a forged access_denied
	// must not cancel the sign-in).
	if subtle.ConstantTimeCompare([]byte(vals.Get("state")), []byte(state)) != 1 {
		return nil, nil, errors.New("auth: the authorization response carries the wrong state; it was not an answer to this request (possible forgery), so it was ignored")
	}
	if err := checkIss(vals, as); err != nil {
		return nil, nil, err
	}
	if e := vals.Get("error"); e != "" {
		oe := &OAuthError{Endpoint: "authorization", URL: redactURL(as.AuthorizationEndpoint), Code: clean(e, 60), Description: clean(vals.Get("error_description"), 200)}
		if e == "access_denied" {
			return nil, nil, fmt.Errorf("%w: %w", ErrCancelled, oe)
		}
		return nil, nil, oe
	}
	code := vals.Get("code")
	if code == "" {
		return nil, nil, errors.New("auth: the authorization response has no code")
	}
	form := formValues(
		"grant_type", grantAuthorizationCode,
		"code", code,
		"redirect_uri", redirect,
		"code_verifier", p.verifier,
		"resource", d.resource,
	)
	tok, err := a.grantToken(ctx, "token request", as.TokenEndpoint, form, c, key, scopes, code, p.verifier)
	if err != nil {
		return nil, nil, err
	}
	return tok, c, nil
}

// checkIss applies RFC 9207: an authorization response's iss must be the
// issuer the request went to, compared exactly (a trailing slash is
// another issuer), and is required when the server advertises
// authorization_response_iss_parameter_supported. It tells apart the
// answers of two authorization servers (a mix-up attack).
func checkIss(vals url.Values, as *serverMetadata) error {
	iss, has := vals["iss"]
	switch {
	case !has && as.AuthorizationResponseIssParameterSupported:
		return fmt.Errorf("auth: the authorization response has no iss, which %s promises (RFC 9207); ignored", redactURL(as.Issuer))
	case has && (len(iss) != 1 || iss[0] != as.Issuer):
		return fmt.Errorf("auth: the authorization response comes from issuer %s, not %s (RFC 9207); ignored", redactURL(vals.Get("iss")), redactURL(as.Issuer))
	}
	return nil
}

// clientCredentials gets a token for the client itself.
func (a *Authorizer) clientCredentials(ctx context.Context, d *discovery, scopes []string, key *dpopKey) (*Token, *client, error) {
	c, err := a.configuredClient(ctx, d.as)
	if err != nil {
		return nil, nil, err
	}
	form := formValues("grant_type", grantClientCredentials, "resource", d.resource)
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	tok, err := a.grantToken(ctx, "client credentials token request", d.as.TokenEndpoint, form, c, key, scopes)
	if err != nil {
		return nil, nil, err
	}
	return tok, c, nil
}

// enterprise exchanges the identity provider's ID token for an identity
// assertion grant (ID-JAG) there, then the grant for an access token at
// the MCP server's authorization server.
func (a *Authorizer) enterprise(ctx context.Context, d *discovery, scopes []string, key *dpopKey) (*Token, *client, error) {
	e := a.opts.Enterprise
	idToken, err := e.IDToken(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("auth: getting the identity token for enterprise authorization: %w", err)
	}
	if idToken == "" {
		return nil, nil, errors.New("auth: the identity token source returned no token")
	}
	exchange := formValues(
		"grant_type", grantTokenExchange,
		"requested_token_type", tokenTypeIDJAG,
		"subject_token", idToken,
		"subject_token_type", tokenTypeIDToken,
		"audience", d.as.Issuer,
		"resource", d.resource,
	)
	if len(scopes) > 0 {
		exchange.Set("scope", strings.Join(scopes, " "))
	}
	var idp *client
	if e.ClientID != "" {
		idp = &client{id: e.ClientID, secret: e.ClientSecret, method: chooseAuthMethod(nil, e.ClientSecret != "", false)}
	}
	r, err := a.tokenRequest(ctx, "token exchange at the identity provider", e.TokenEndpoint, exchange, idp, nil, idToken)
	if err != nil {
		return nil, nil, err
	}
	if r.IssuedTokenType != "" && r.IssuedTokenType != tokenTypeIDJAG {
		return nil, nil, &OAuthError{Endpoint: "token exchange at the identity provider", URL: redactURL(e.TokenEndpoint),
			Problem: fmt.Sprintf("the issued token is a %q, not an identity assertion grant (%s)", clean(r.IssuedTokenType, 80), tokenTypeIDJAG)}
	}
	grant := r.AccessToken
	c, err := a.configuredClient(ctx, d.as)
	if err != nil {
		return nil, nil, err
	}
	form := formValues("grant_type", grantJWTBearer, "assertion", grant, "resource", d.resource)
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	tok, err := a.grantToken(ctx, "JWT bearer grant", d.as.TokenEndpoint, form, c, key, scopes, grant, idToken)
	if err != nil {
		return nil, nil, err
	}
	return tok, c, nil
}

// workloadIdentity presents the workload's identity JWT as an RFC 7523
// JWT bearer grant. A refused grant is reported as it is: the workload's
// identity is what it is, so neither a retry nor another grant would help.
func (a *Authorizer) workloadIdentity(ctx context.Context, d *discovery, scopes []string, key *dpopKey) (*Token, *client, error) {
	// The token is valid wherever its audience is: a server that names
	// another authorization server must not collect it to replay it.
	if err := a.bindTo(ctx, d.as.Issuer, errWorkloadIssuer); err != nil {
		return nil, nil, err
	}
	assertion, err := a.opts.WorkloadToken(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("auth: getting the workload identity token: %w", err)
	}
	if assertion == "" {
		return nil, nil, errors.New("auth: the workload identity token source returned no token")
	}
	var c *client
	if a.opts.ClientID != "" {
		if c, err = a.configuredClient(ctx, d.as); err != nil {
			return nil, nil, err
		}
	}
	form := formValues("grant_type", grantJWTBearer, "assertion", assertion, "resource", d.resource)
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	tok, err := a.grantToken(ctx, "workload identity token request", d.as.TokenEndpoint, form, c, key, scopes, assertion)
	if err != nil {
		return nil, nil, err
	}
	if c == nil {
		c = &client{method: AuthNone, audience: d.as.Issuer}
	}
	return tok, c, nil
}

// configuredClient is the pre-registered client, authenticating the way
// the server supports. A configured secret goes only to the issuer it is
// bound to.
func (a *Authorizer) configuredClient(ctx context.Context, as *serverMetadata) (*client, error) {
	if err := a.bindSecret(ctx, as.Issuer); err != nil {
		return nil, err
	}
	return &client{
		id:       a.opts.ClientID,
		secret:   a.opts.ClientSecret,
		method:   chooseAuthMethod(as.TokenEndpointAuthMethodsSupported, a.opts.ClientSecret != "", a.signer != nil),
		key:      a.signer,
		audience: as.Issuer,
	}, nil
}

// bindSecret checks that the configured client secret may go to issuer:
// the one configured for it (ClientSecretIssuer), else the first one it
// was used with, which is recorded now if there is none yet. A server
// whose metadata names another authorization server cannot collect it.
func (a *Authorizer) bindSecret(ctx context.Context, issuer string) error {
	if a.opts.ClientSecret == "" {
		return nil
	}
	return a.bindTo(ctx, issuer, errSecretIssuer)
}

// openUserAgent opens the user agent for a sign-in at issuer. The
// module's own Loopback is asked to listen where the client registered
// earlier with that issuer was redirected, so that the registration
// serves again (see clientFor).
func (a *Authorizer) openUserAgent(ctx context.Context, issuer string) (Callback, error) {
	lb, ok := a.opts.UserAgent.(*Loopback)
	if !ok || a.opts.ClientID != "" {
		return a.opts.UserAgent.Open(ctx)
	}
	a.mu.Lock()
	reg := a.rec.clone().Registration
	a.mu.Unlock()
	if reg == nil || reg.Issuer != issuer {
		return lb.Open(ctx)
	}
	return lb.openReusing(ctx, reg.RedirectURI)
}

// clientFor identifies the client for the authorization code flow, in the
// order MCP prescribes: pre-registered credentials; a client ID metadata
// document where the server supports them; dynamic registration, reusing
// one made earlier with this issuer for this redirect URI.
func (a *Authorizer) clientFor(ctx context.Context, d *discovery, redirect string) (*client, error) {
	as := d.as
	if a.opts.ClientID != "" {
		return a.configuredClient(ctx, as)
	}
	if as.ClientIDMetadataDocumentSupported && a.opts.ClientMetadataURL != "" {
		return &client{id: a.opts.ClientMetadataURL, method: AuthNone, audience: as.Issuer}, nil
	}
	a.mu.Lock()
	reg := a.rec.clone().Registration
	a.mu.Unlock()
	if reg != nil && reg.Issuer == as.Issuer && reg.RedirectURI == redirect &&
		(reg.ClientSecretExpiresAt == 0 || a.now().Unix() < reg.ClientSecretExpiresAt) {
		return &client{id: reg.ClientID, secret: reg.ClientSecret, method: reg.AuthMethod, audience: as.Issuer}, nil
	}
	if as.RegistrationEndpoint != "" {
		c, err := a.register(ctx, as, redirect)
		if err != nil && as.legacyDefaults {
			// The endpoint was guessed: say so, or the user chases a
			// registration failure at a server that never offered one.
			err = fmt.Errorf("%w; %s publishes neither resource nor authorization server metadata, so that endpoint is only the 2025-03-26 default: the server may not take OAuth tokens at all (a fixed token is then given another way)", err, a.redacted)
		}
		return c, err
	}
	return nil, fmt.Errorf("%w for %s: authorization server %s offers no dynamic registration; configure a pre-registered clientId", errNoClientID, a.redacted, as.Issuer)
}

func formValues(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// withQuery adds q to endpoint's own query (an endpoint may carry fixed
// parameters of its own).
func withQuery(endpoint string, q url.Values) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("auth: authorization endpoint %s is not a valid URL", redactURL(endpoint))
	}
	all := u.Query()
	for k, vs := range q {
		all[k] = vs
	}
	u.RawQuery = all.Encode()
	return u.String(), nil
}
