package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// satisfy gets a new token for a challenge. It runs as the one flight.
// rejected says the server refused a token it was sent (a 401 to a request
// that carried one): the resource metadata is then read again, since the
// server may have moved to another authorization server, whose
// registration and tokens must be new (MCP 2026-07-28: credentials are
// bound to the issuer that issued them).
func (a *Authorizer) satisfy(ctx context.Context, ch Challenge, stepUp, rejected bool) error {
	var recheck *discovery
	if rejected && !stepUp {
		d, err := a.rediscover(ctx, ch.Param("resource_metadata"))
		if err != nil {
			return err
		}
		recheck = d
	}
	a.mu.Lock()
	var held []string // a step-up keeps the scopes already granted
	if stepUp && a.rec.Token != nil {
		held = slices.Clone(a.rec.Token.Scopes)
	}
	attempts := a.attempts
	canRefresh := a.canRefreshLocked()
	a.mu.Unlock()

	// A rejected token is refreshed before the user is asked again; a
	// refresh cannot widen the scopes, so step-up skips it.
	if !stepUp && canRefresh && attempts < maxAttempts {
		a.bumpAttempts()
		attempts++
		err := a.refresh(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.logf("auth: refreshing the token for %s failed (%v); authorizing again", a.redacted, err)
	}
	if attempts >= maxAttempts {
		return fmt.Errorf("%w: %s", errTooManyAttempts, a.redacted)
	}
	d := recheck
	if d == nil {
		var err error
		if d, err = a.discover(ctx, ch.Param("resource_metadata")); err != nil {
			return err
		}
	}
	scopes := a.scopesFor(d, ch, held)
	a.bumpAttempts()
	return a.obtain(ctx, d, scopes)
}

// rediscover reads the resource metadata again after the server refused
// a token. When it still names the authorization server in use, what was
// found before stands; otherwise discovery starts over (and drops the
// tokens and registration of the old server).
func (a *Authorizer) rediscover(ctx context.Context, prmURL string) (*discovery, error) {
	a.mu.Lock()
	d := a.disc
	a.mu.Unlock()
	if d == nil || d.prm == nil {
		return a.discover(ctx, prmURL)
	}
	if prmURL == "" {
		prmURL = d.prmURL
	}
	prm, from, err := a.discoverResource(ctx, prmURL)
	if err != nil {
		return nil, err
	}
	if prm != nil && from == d.prmURL && prm.Resource == d.prm.Resource && slices.Contains(prm.AuthorizationServers, d.as.Issuer) {
		return d, nil
	}
	return a.discoverWith(ctx, prm, from)
}

func (a *Authorizer) bumpAttempts() {
	a.mu.Lock()
	a.attempts++
	a.mu.Unlock()
}

// obtain runs the configured grant and installs the token it yields.
func (a *Authorizer) obtain(ctx context.Context, d *discovery, scopes []string) error {
	var (
		tok *Token
		c   *client
		key *dpopKey // a fresh key for every new credential
		err error
	)
	if a.useDPoP(d.as) {
		if key, err = newDPoPKey(); err != nil {
			return err
		}
	}
	switch a.grant {
	case GrantClientCredentials:
		tok, c, err = a.clientCredentials(ctx, d, scopes, key)
	case GrantEnterprise:
		tok, c, err = a.enterprise(ctx, d, scopes, key)
	case GrantWorkloadIdentity:
		tok, c, err = a.workloadIdentity(ctx, d, scopes, key)
	default:
		tok, c, err = a.authorizationCode(ctx, d, scopes, key)
	}
	if err != nil {
		return err
	}
	a.install(ctx, d, c, tok)
	a.logf("auth: authorized for %s by %s", a.redacted, d.as.Issuer)
	return nil
}

// install makes tok the current token and stores it.
func (a *Authorizer) install(ctx context.Context, d *discovery, c *client, tok *Token) {
	a.commit(ctx, func(r *Record) {
		r.ServerURL = a.key
		r.Issuer = d.as.Issuer
		r.TokenEndpoint = d.as.TokenEndpoint
		r.Resource = d.resource
		r.ClientID = c.id
		r.AuthMethod = c.method
		r.Token = tok
		r.Updated = a.now()
		a.gotToken = r.Updated
	})
}

// discover finds the resource metadata and the authorization server's
// metadata, reusing what an earlier challenge found unless this one names
// other resource metadata.
func (a *Authorizer) discover(ctx context.Context, prmURL string) (*discovery, error) {
	if a.cleartext {
		// Signing in would get a token that is never sent (Authorize);
		// say so before the user is asked.
		return nil, a.cleartextErr()
	}
	a.mu.Lock()
	d := a.disc
	a.mu.Unlock()
	if d != nil && (prmURL == "" || prmURL == d.prmURL) {
		return d, nil
	}
	prm, from, err := a.discoverResource(ctx, prmURL)
	if err != nil {
		return nil, err
	}
	return a.discoverWith(ctx, prm, from)
}

// discoverWith finds the authorization server of the resource metadata
// prm (read from from; nil for a 2025-03-26 server) and makes it the one
// in use, dropping the tokens of another.
func (a *Authorizer) discoverWith(ctx context.Context, prm *protectedResourceMetadata, from string) (*discovery, error) {
	var (
		as  *serverMetadata
		err error
	)
	if prm == nil {
		as, err = a.legacyServer(ctx)
	} else {
		var problems []error
		for _, issuer := range prm.AuthorizationServers {
			as, err = a.discoverServer(ctx, issuer, true)
			if err == nil || !errors.Is(err, errNotFound) {
				break
			}
			problems = append(problems, err)
		}
		if as == nil && err == nil {
			err = errors.Join(problems...)
		}
	}
	if err != nil {
		return nil, err
	}
	d := &discovery{prmURL: from, prm: prm, as: as, resource: a.key}
	if prm != nil && prm.Resource != "" {
		d.resource = prm.Resource
	}
	a.mu.Lock()
	a.disc = d
	changed := a.rec.Issuer != "" && a.rec.Issuer != as.Issuer
	if changed {
		// Never send a token from one authorization server to a resource
		// that now trusts another.
		a.logf("auth: %s now uses authorization server %s instead of %s; dropping the old tokens", a.redacted, as.Issuer, a.rec.Issuer)
		a.rec = Record{ServerURL: a.key, SecretIssuer: a.rec.SecretIssuer}
	}
	rec := a.rec.clone()
	a.mu.Unlock()
	if changed {
		a.save(ctx, rec)
	}
	return d, nil
}

// scopesFor chooses the scopes to ask for: the challenge's, else the
// configured ones, else everything the resource metadata lists, else none
// (the scope parameter is then omitted), joined by held, the scopes a
// step-up already holds. offline_access (for a refresh token) is added only for the
// authorization code grant, when the authorization server lists it and
// other scopes are asked for anyway.
func (a *Authorizer) scopesFor(d *discovery, ch Challenge, held []string) []string {
	var s []string
	switch {
	case len(strings.Fields(ch.Param("scope"))) > 0:
		s = strings.Fields(ch.Param("scope"))
	case len(a.opts.Scopes) > 0:
		s = slices.Clone(a.opts.Scopes)
	case d.prm != nil:
		s = slices.Clone(d.prm.ScopesSupported)
	}
	if held != nil {
		s = union(held, s)
	}
	if a.grant == GrantAuthorizationCode && len(s) > 0 &&
		slices.Contains(d.as.ScopesSupported, "offline_access") && !slices.Contains(s, "offline_access") {
		s = append(s, "offline_access")
	}
	return s
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// refresh trades the refresh token for a new access token. A refresh
// token the server rejects (invalid_grant and the like) is dropped so it
// is not tried again.
func (a *Authorizer) refresh(ctx context.Context) error {
	// Hold the record's lock (a FileStore's is shared with other
	// processes) around the refresh and its save, so that a parallel
	// mcpwire waits for this result instead of spending the same rotating
	// refresh token.
	if l, ok := a.store.(RecordLocker); ok {
		unlock, err := l.LockRecord(ctx, a.key)
		if err != nil {
			return err
		}
		defer unlock()
	}
	a.mu.Lock()
	rec := a.rec.clone()
	a.mu.Unlock()
	if rec.Token == nil || rec.Token.RefreshToken == "" {
		return errors.New("no refresh token")
	}
	// Another process (a second mcpwire) may have refreshed already and
	// rotated the refresh token: take its result instead, and refresh
	// with its refresh token only if its access token is no longer good.
	if a.adoptStored(ctx, rec) {
		a.mu.Lock()
		rec = a.rec.clone()
		a.mu.Unlock()
		if rec.Token.Valid(a.now()) || rec.Token.RefreshToken == "" {
			return nil
		}
	}
	c, err := a.refreshClient(rec)
	if err != nil {
		a.dropToken(ctx)
		return err
	}
	form := formValues("grant_type", grantRefreshToken, "refresh_token", rec.Token.RefreshToken)
	if rec.Resource != "" {
		form.Set("resource", rec.Resource)
	}
	// A DPoP-bound token is refreshed with a proof of the same key (RFC
	// 9449 section 5: the refresh token is bound to it too).
	var key *dpopKey
	if rec.Token.Type == dpopScheme {
		if key, err = a.keyFor(rec.Token.DPoPKey); err != nil {
			a.dropToken(ctx)
			return err
		}
	}
	tok, err := a.grantToken(ctx, "token refresh", rec.TokenEndpoint, form, c, key, rec.Token.Scopes, rec.Token.RefreshToken)
	if err != nil {
		var oe *OAuthError
		if errors.As(err, &oe) && (oe.Code == "invalid_grant" || oe.Code == "invalid_client" || oe.Code == "unauthorized_client") {
			// A store without a lock, or a process that does not take
			// it, may have rotated the token meanwhile: its result is as
			// good as ours would have been.
			if oe.Code == "invalid_grant" && a.adoptStored(ctx, rec) {
				return nil
			}
			a.dropToken(ctx)
		}
		return err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = rec.Token.RefreshToken // not rotated: keep using it
	}
	a.commit(ctx, func(r *Record) {
		r.Token = tok
		r.Updated = a.now()
		a.gotToken = r.Updated
	})
	return nil
}

// adoptStored takes the stored record when another process has replaced
// the token of rec (from the same issuer) by one that is valid, or by a
// new refresh token, and reports whether it did.
func (a *Authorizer) adoptStored(ctx context.Context, rec *Record) bool {
	stored, err := a.store.Load(ctx, a.key)
	if err != nil || stored == nil || stored.Token == nil || stored.Issuer != rec.Issuer {
		return false
	}
	newer := stored.Token.Valid(a.now()) && stored.Token.AccessToken != rec.Token.AccessToken ||
		stored.Token.RefreshToken != "" && stored.Token.RefreshToken != rec.Token.RefreshToken
	if !newer {
		return false
	}
	a.mu.Lock()
	a.rec = *stored
	a.mu.Unlock()
	return true
}

// refreshClient rebuilds the client that the stored token was issued to.
func (a *Authorizer) refreshClient(rec *Record) (*client, error) {
	c := &client{id: rec.ClientID, method: rec.AuthMethod, audience: rec.Issuer, key: a.signer}
	switch {
	case rec.ClientID == "":
		return nil, errors.New("the stored token names no client")
	case rec.Registration != nil && rec.Registration.ClientID == rec.ClientID:
		c.secret = rec.Registration.ClientSecret
	case rec.ClientID == a.opts.ClientID:
		bound := a.opts.ClientSecretIssuer
		if bound == "" {
			bound = rec.SecretIssuer
		}
		if a.opts.ClientSecret != "" && bound != "" && strings.TrimSuffix(bound, "/") != strings.TrimSuffix(rec.Issuer, "/") {
			return nil, fmt.Errorf("%w: it belongs to %s, not to %s, which issued the stored token", errSecretIssuer, redactURL(bound), redactURL(rec.Issuer))
		}
		c.secret = a.opts.ClientSecret
	case rec.ClientID == a.opts.ClientMetadataURL:
	default:
		return nil, fmt.Errorf("the stored token belongs to client %s, which is no longer configured", clip(rec.ClientID, 80))
	}
	if c.method == "" {
		c.method = chooseAuthMethod(nil, c.secret != "", c.key != nil)
	}
	return c, nil
}

// dropToken forgets the token (after the server rejected its refresh
// token) and stores that.
func (a *Authorizer) dropToken(ctx context.Context) {
	a.commit(ctx, func(r *Record) {
		r.Token = nil
		r.Updated = a.now()
	})
}

// commit changes the record under the lock with change, then stores a
// copy of it.
func (a *Authorizer) commit(ctx context.Context, change func(r *Record)) {
	a.mu.Lock()
	change(&a.rec)
	rec := a.rec.clone()
	a.mu.Unlock()
	a.save(ctx, rec)
}
