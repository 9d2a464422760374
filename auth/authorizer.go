package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// protocolVersion is the MCP version announced on metadata requests.
const protocolVersion = "2025-11-25"

// maxAttempts bounds the authorizations (and refreshes) run for challenges
// before a request with the resulting token succeeds. MCP asks clients to
// limit them so that a server that will never be satisfied does not keep
// the user in a loop of sign-ins.
const maxAttempts = 3

// defaultClientName is the client_name of dynamic registrations.
const defaultClientName = "mcpwire"

// Grant says how an Authorizer obtains tokens.
type Grant string

const (
	// GrantAuthorizationCode: the user signs in through a UserAgent (the
	// default). Without a UserAgent only stored tokens and refresh work.
	GrantAuthorizationCode Grant = "authorization_code"
	// GrantClientCredentials: the client authenticates as itself, with a
	// client secret or a private_key_jwt assertion (machine to machine,
	// the MCP "OAuth client credentials" extension).
	GrantClientCredentials Grant = "client_credentials"
	// GrantEnterprise: enterprise-managed authorization (the MCP
	// "cross-app access" extension): an identity token from the
	// enterprise's identity provider is exchanged there for an identity
	// assertion grant (ID-JAG, RFC 8693), which the MCP server's
	// authorization server trades for an access token (RFC 7523).
	GrantEnterprise Grant = "enterprise"
	// GrantWorkloadIdentity: workload identity federation (the MCP
	// "workload identity" extension): a JWT that the platform issues to
	// this workload (a Kubernetes service account token, a cloud's
	// identity token, a CI job's OIDC token) is presented as an RFC 7523
	// JWT bearer grant; no user and no client secret are involved.
	GrantWorkloadIdentity Grant = "workload_identity"
)

// WorkloadTokenFile is a WorkloadToken source that reads the JWT from a
// file each time (platforms rotate projected tokens in place).
func WorkloadTokenFile(path string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			// The path is the user's own; the error names it, never the
			// contents.
			return "", fmt.Errorf("reading the workload identity token: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
}

// WorkloadTokenEnv is a WorkloadToken source that reads the JWT from the
// environment variable name each time.
func WorkloadTokenEnv(name string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		v := strings.TrimSpace(os.Getenv(name))
		if v == "" {
			return "", fmt.Errorf("the environment variable %s holds no workload identity token", name)
		}
		return v, nil
	}
}

// Enterprise configures GrantEnterprise.
type Enterprise struct {
	// IDToken returns the user's identity token from the identity
	// provider (obtained by the host's own single sign-on).
	IDToken func(ctx context.Context) (string, error)
	// TokenEndpoint is the identity provider's token endpoint, where the
	// token exchange happens.
	TokenEndpoint string
	// ClientID and ClientSecret identify this client at the identity
	// provider; the secret may be empty.
	ClientID     string
	ClientSecret string
}

// Options configure an Authorizer. The zero value is a public client that
// registers itself dynamically and, lacking a UserAgent, never asks the
// user (headless).
type Options struct {
	// ClientID and ClientSecret are pre-registered credentials. They take
	// precedence over client ID metadata documents and registration.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the https URL of this client's Client ID
	// Metadata Document. It is used as the client_id with authorization
	// servers that advertise client_id_metadata_document_supported.
	ClientMetadataURL string
	// ClientName is sent in dynamic registrations; default "mcpwire".
	ClientName string
	// Scopes are requested when the server's challenge names none; they
	// replace the server's scopes_supported.
	Scopes []string
	// Grant selects how tokens are obtained; default
	// GrantAuthorizationCode.
	Grant Grant
	// PrivateKeyPEM, with GrantClientCredentials, authenticates the client
	// with a private_key_jwt assertion signed by this key (PKCS #8, SEC 1
	// or PKCS #1 PEM). SigningAlg is ES256, ES384 or RS256; empty picks
	// the key's natural one.
	PrivateKeyPEM []byte
	SigningAlg    string
	// Enterprise configures GrantEnterprise.
	Enterprise *Enterprise
	// WorkloadToken returns the workload's identity JWT for
	// GrantWorkloadIdentity (see WorkloadTokenFile, WorkloadTokenEnv). It
	// is called for every token request, so a rotated token is picked up.
	// ClientID is optional with this grant: when set the client names
	// itself (or authenticates, with a secret or key).
	WorkloadToken func(ctx context.Context) (string, error)
	// DPoP says when tokens are bound to a key (RFC 9449); the default,
	// DPoPAuto, does it with authorization servers that support it.
	DPoP DPoPMode
	// UserAgent takes the user through sign-in. Nil means headless:
	// stored tokens, refresh and the non-interactive grants only; a
	// sign-in that is needed fails with ErrInteractionRequired.
	UserAgent UserAgent
	// SignInHint is added to that error to tell the user how to sign in
	// instead (mcpwire says "sign in first: mcpwire login URL").
	SignInHint string
	// Store keeps registrations and tokens between runs; nil keeps them
	// in memory only.
	Store Store
	// HTTPClient sends metadata, registration and token requests. Nil
	// means a private client with a 30 s timeout that refuses to connect
	// to link-local addresses (cloud metadata endpoints); a given client
	// should do the same.
	HTTPClient *http.Client
	// Logf receives notes on what the Authorizer does (never a secret).
	// Nil discards them.
	Logf func(format string, args ...any)
	// AllowInsecureHTTP lets tokens, codes and client credentials travel
	// over plain http to hosts other than loopback: the MCP server, the
	// authorization server's issuer and endpoints, and where metadata is
	// fetched. Off by default, as OAuth 2.1 requires TLS; anyone on the
	// network path can then read and replace them. For a lab setup only.
	AllowInsecureHTTP bool
	// ClientSecretIssuer is the issuer of the authorization server that
	// ClientID and ClientSecret were registered with. The secret (and a
	// workload identity token) is sent to that issuer only. Empty binds
	// it to the first issuer it is used with (kept in the Store), so that
	// a server whose metadata later names another authorization server
	// cannot collect it.
	ClientSecretIssuer string
	// AcceptIssuer moves the binding recorded at the first use of the
	// credentials to this issuer, when the server's metadata names it
	// (mcpwire login --accept-issuer). It never overrides a configured
	// ClientSecretIssuer.
	AcceptIssuer string
	// AcceptIssuerHint, given the issuer a server names now and whether
	// the binding is configured (ClientSecretIssuer), says how to accept
	// it (mcpwire names its login command or the config field); the
	// *IssuerChangedError carries it.
	AcceptIssuerHint func(issuer string, configured bool) string

	// now is replaced by tests that need to move time.
	now func() time.Time
}

// Authorizer obtains, keeps and sends tokens for one MCP server. It
// implements transport.Authorizer, so it goes into the Auth field of the
// HTTP transports; the transports also tell it of the replies they got
// (Accepted, AcceptedReply).
//
// It is safe for concurrent use. Requests that meet an expired token or a
// challenge at the same time share one refresh or authorization (one
// "flight"): the others wait for it and are sent again with its token.
type Authorizer struct {
	opts   Options
	server *url.URL // the server URL as configured
	// cleartext: the server is plain http outside loopback, so no token
	// is sent to it (unless AllowInsecureHTTP).
	cleartext bool
	key       string // its canonical form: the store key and default resource
	redacted  string
	grant     Grant
	http      *http.Client // probes of the MCP server
	meta      *http.Client // metadata: redirects within the origin only
	post      *http.Client // token and registration: no redirects
	store     Store
	signer    *signingKey
	now       func() time.Time

	mu       sync.Mutex
	loaded   bool
	rec      Record
	disc     *discovery
	flight   *flight
	attempts int // authorizations since a request last succeeded
	// gotToken is when the current token was obtained or refreshed by
	// this Authorizer (zero: loaded from the Store), for refreshFloor.
	gotToken  time.Time
	cancelled error // sticky: the user cancelled; cleared by Reset
	// DPoP: the servers' latest nonces by origin, and the parsed key of
	// the current token (dpopEncoded is its stored form).
	nonces      map[string]string
	dpopEncoded string
	dpopKey     *dpopKey

	// waitHook, set by tests, runs whenever a caller starts waiting for
	// another caller's flight.
	waitHook func()
}

// discovery is what was learnt about the server and its authorization
// server.
type discovery struct {
	prmURL   string                     // where the resource metadata came from
	prm      *protectedResourceMetadata // nil for a 2025-03-26 server
	as       *serverMetadata
	resource string // the resource parameter: the metadata's, else the canonical server URL
}

// flight is one refresh or authorization in progress.
type flight struct {
	// refreshOnly: a refresh of an expired token, whose failure only
	// means that a challenge will authorize afresh; the failure of any
	// other flight is shared by everyone who waited for it.
	refreshOnly bool
	done        chan struct{}
	err         error // set before done is closed
}

// failedFor reports the error a caller that waited for f must return:
// the flight's failure, unless it was only a refresh or ended because its
// own caller's context did (then the waiter tries for itself).
func (f *flight) failedFor() error {
	if f.err == nil || f.refreshOnly || isContextErr(f.err) {
		return nil
	}
	return f.err
}

// await waits until the flight f has landed or ctx ends.
func (a *Authorizer) await(ctx context.Context, f *flight) error {
	if a.waitHook != nil {
		a.waitHook()
	}
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// New returns an Authorizer for the MCP server at serverURL. It checks the
// options (and parses the private key) but does no I/O.
func New(serverURL string, opts *Options) (*Authorizer, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	key, err := CanonicalResource(serverURL)
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(serverURL)
	a := &Authorizer{
		opts:     o,
		server:   u,
		key:      key,
		redacted: redactParsed(u),
		grant:    o.Grant,
		http:     o.HTTPClient,
		store:    o.Store,
		now:      o.now,
	}
	a.cleartext = !o.AllowInsecureHTTP && !secureEnough(u)
	if a.grant == "" {
		a.grant = GrantAuthorizationCode
	}
	if a.http == nil {
		a.http = defaultHTTPClient()
	}
	a.meta, a.post = metadataClient(a.http), postClient(a.http)
	if a.store == nil {
		a.store = &MemoryStore{}
	}
	if a.now == nil {
		a.now = time.Now
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		return nil, errors.New("auth: a client secret is configured without a client ID")
	}
	if o.ClientMetadataURL != "" {
		cu, err := url.Parse(o.ClientMetadataURL)
		if err != nil || cu.Scheme != "https" || cu.Host == "" || strings.TrimSuffix(cu.Path, "/") == "" {
			return nil, fmt.Errorf("auth: client metadata URL %s must be an https URL with a path", redactURL(o.ClientMetadataURL))
		}
	}
	if len(o.PrivateKeyPEM) > 0 {
		k, err := parsePrivateKey(o.PrivateKeyPEM, o.SigningAlg)
		if err != nil {
			return nil, fmt.Errorf("auth: private key for %s: %w", a.redacted, err)
		}
		a.signer = k
	}
	switch o.DPoP {
	case DPoPAuto, DPoPOn, DPoPOff:
	default:
		return nil, fmt.Errorf("auth: unknown DPoP mode %q (want on, off or empty for automatic)", clean(string(o.DPoP), 20))
	}
	switch a.grant {
	case GrantAuthorizationCode:
	case GrantClientCredentials:
		if o.ClientID == "" || (o.ClientSecret == "" && a.signer == nil) {
			return nil, errors.New("auth: the client credentials grant needs a client ID and either a client secret or a private key")
		}
	case GrantEnterprise:
		e := o.Enterprise
		if e == nil || e.IDToken == nil || e.TokenEndpoint == "" || o.ClientID == "" {
			return nil, errors.New("auth: enterprise-managed authorization needs a client ID, an identity token source and the identity provider's token endpoint")
		}
		if !isHTTPURL(e.TokenEndpoint) {
			return nil, fmt.Errorf("auth: identity provider token endpoint %s is not an http(s) URL", redactURL(e.TokenEndpoint))
		}
		if err := a.requireTLS("identity provider token endpoint", e.TokenEndpoint); err != nil {
			return nil, err
		}
	case GrantWorkloadIdentity:
		if o.WorkloadToken == nil {
			return nil, errors.New("auth: the workload identity grant needs a workload token source (a token file or environment variable)")
		}
	default:
		return nil, fmt.Errorf("auth: unknown grant %q", clean(string(a.grant), 40))
	}
	return a, nil
}

// ServerURL returns the canonical URL of the server (the store key).
func (a *Authorizer) ServerURL() string { return a.key }

// Authorize sets the Authorization header of req to the current token,
// refreshing an expired one first (one refresh shared by all concurrent
// callers). Without a usable token it leaves req alone: the server's 401
// then drives Challenge. It fails when ctx ends, or when it waited for an
// authorization (started by a concurrent challenge) that failed: that
// outcome is shared rather than tried again at once.
func (a *Authorizer) Authorize(ctx context.Context, req *http.Request) error {
	if a.cleartext {
		return nil // never a token in clear text; Challenge says why
	}
	tok, err := a.token(ctx)
	if err != nil || tok == "" {
		return err
	}
	a.mu.Lock()
	var bound *Token
	if t := a.rec.Token; t != nil && t.AccessToken == tok && t.Type == dpopScheme {
		c := *t
		bound = &c
	}
	a.mu.Unlock()
	if bound == nil {
		req.Header.Set("Authorization", "Bearer "+tok)
		return nil
	}
	if err := a.setDPoP(req, bound); err != nil {
		// A damaged key: the token cannot be used, so it goes, and the
		// server's 401 brings a new one.
		a.logf("%v", err)
		a.dropToken(ctx)
	}
	return nil
}

// token returns the access token to send, "" when there is none.
func (a *Authorizer) token(ctx context.Context) (string, error) {
	waited := false
	for {
		a.mu.Lock()
		a.loadLocked(ctx)
		if tok := a.usableLocked(); tok != "" {
			a.mu.Unlock()
			return tok, nil
		}
		if f := a.flight; f != nil {
			a.mu.Unlock()
			if waited {
				return "", nil
			}
			if err := a.await(ctx, f); err != nil {
				return "", err
			}
			if err := f.failedFor(); err != nil {
				return "", err
			}
			waited = true
			continue
		}
		if waited || !a.canRefreshLocked() || a.freshLocked(a.now()) {
			// A token refreshed moments ago that expired already is not
			// refreshed again before the server says so (a 401): a
			// token that lives a second must not cost a refresh per
			// request.
			a.mu.Unlock()
			return "", nil
		}
		f := a.startFlightLocked()
		f.refreshOnly = true
		a.mu.Unlock()
		err := a.refresh(ctx)
		a.endFlight(f, err)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			a.logf("auth: refreshing the expired token for %s failed: %v", a.redacted, err)
			return "", nil
		}
		waited = true
	}
}

// oauthChallenge reads the Bearer challenge of a reply, else its DPoP
// one (RFC 9449 section 7.1: a resource server that takes only DPoP
// tokens challenges with that scheme); ours is false when the reply
// challenges with another scheme only (Basic, say), which is not OAuth's
// to answer. No challenge at all is ours: the spec's fallbacks find the
// metadata.
func oauthChallenge(h http.Header) (ch Challenge, ours bool) {
	var dpop *Challenge
	for _, c := range ParseChallenges(h.Values("WWW-Authenticate")) {
		if strings.EqualFold(c.Scheme, "Bearer") {
			return c, true
		}
		if dpop == nil && strings.EqualFold(c.Scheme, dpopScheme) {
			dpop = &c
		}
	}
	if dpop != nil {
		return *dpop, true
	}
	return Challenge{}, len(h.Values("WWW-Authenticate")) == 0
}

// Challenge handles a 401, or a 403 with error="insufficient_scope", to a
// request prepared by Authorize. If another token is current by now (a
// concurrent request got one), it just asks for the request to be sent
// again. Otherwise it runs one flight: for a 401 a refresh when there is a
// refresh token, else discovery and a new authorization; for a 403 an
// authorization with the union of the scopes held and asked for.
// Concurrent challenges wait for that flight and share its outcome.
func (a *Authorizer) Challenge(ctx context.Context, resp *http.Response) (bool, error) {
	ch, ours := oauthChallenge(resp.Header)
	if !ours {
		return false, nil // another scheme (Basic, say): not OAuth's to answer
	}
	stepUp := false
	switch resp.StatusCode {
	case http.StatusUnauthorized:
	case http.StatusForbidden:
		if !strings.EqualFold(ch.Param("error"), "insufficient_scope") {
			return false, nil // forbidden for another reason: not ours to fix
		}
		stepUp = true
	default:
		return false, nil
	}
	if a.cleartext {
		return false, a.cleartextErr()
	}
	if retry, handled := a.nonceRetry(resp); handled {
		return retry, nil
	}
	sent := bearerToken(resp.Request)
	for {
		a.mu.Lock()
		a.loadLocked(ctx)
		if a.cancelled != nil {
			err := a.cancelled
			a.mu.Unlock()
			return false, err
		}
		if cur := a.usableLocked(); cur != "" && cur != sent {
			a.mu.Unlock()
			return true, nil
		}
		if f := a.flight; f != nil {
			a.mu.Unlock()
			if err := a.await(ctx, f); err != nil {
				return false, err
			}
			if err := f.failedFor(); err != nil {
				return false, err
			}
			continue
		}
		f := a.startFlightLocked()
		a.mu.Unlock()
		err := a.satisfy(ctx, ch, stepUp, sent != "")
		a.endFlight(f, err)
		if err != nil {
			return false, err
		}
		return true, nil
	}
}

// Accepted resets the attempt budget once a request with the current
// token got through: the authorizations so far were not a loop.
func (a *Authorizer) Accepted(req *http.Request) {
	sent := bearerToken(req)
	if sent == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.rec.Token != nil && a.rec.Token.AccessToken == sent {
		a.attempts = 0
	}
}

// Reset forgets a cancellation and the attempt budget, so that the next
// challenge may ask the user again (after the user said they want to).
func (a *Authorizer) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancelled = nil
	a.attempts = 0
}

// Logout forgets the server's tokens and registration, here and in the
// Store. (Tokens are not revoked at the authorization server.) It keeps
// the binding of the configured credentials to their authorization
// server (Record.SecretIssuer): signing out must not let the next
// sign-in send them to whichever issuer the server names by then.
func (a *Authorizer) Logout(ctx context.Context) error {
	a.mu.Lock()
	a.loadLocked(ctx)
	kept := Record{ServerURL: a.key, SecretIssuer: a.rec.SecretIssuer}
	a.rec = kept
	a.disc = nil
	a.cancelled = nil
	a.attempts = 0
	a.mu.Unlock()
	if kept.SecretIssuer != "" {
		return a.store.Save(ctx, &kept)
	}
	return a.store.Delete(ctx, a.key)
}

// BoundIssuer returns the authorization server the configured credentials
// are bound to (configured, else recorded at their first use), "" when
// none is yet.
func (a *Authorizer) BoundIssuer(ctx context.Context) string {
	if a.opts.ClientSecretIssuer != "" {
		return a.opts.ClientSecretIssuer
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.loadLocked(ctx)
	return a.rec.SecretIssuer
}

// Status returns a copy of what is known about the server's tokens (nil
// when nothing is).
func (a *Authorizer) Status(ctx context.Context) *Record {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.loadLocked(ctx)
	if a.rec.Token == nil && a.rec.Registration == nil {
		return nil
	}
	return a.rec.clone()
}

func (a *Authorizer) startFlightLocked() *flight {
	f := &flight{done: make(chan struct{})}
	a.flight = f
	return f
}

func (a *Authorizer) endFlight(f *flight, err error) {
	a.mu.Lock()
	a.flight = nil
	f.err = err
	if err != nil && errors.Is(err, ErrCancelled) && !isContextErr(err) {
		a.cancelled = err
	}
	a.mu.Unlock()
	close(f.done)
}

// loadLocked reads the stored record once. A damaged store is reported
// and treated as empty: signing in again repairs it.
func (a *Authorizer) loadLocked(ctx context.Context) {
	if a.loaded {
		return
	}
	a.loaded = true
	a.rec = Record{ServerURL: a.key}
	r, err := a.store.Load(ctx, a.key)
	if err != nil {
		a.logf("auth: %v", err)
		return
	}
	if r != nil {
		a.rec = *r
	}
}

// usableLocked returns the current access token if it is valid, or if
// it was obtained within refreshFloor and has not expired yet (a
// short-lived token, all inside the skew).
func (a *Authorizer) usableLocked() string {
	t, now := a.rec.Token, a.now()
	if t.Valid(now) {
		return t.AccessToken
	}
	if t != nil && t.AccessToken != "" && a.freshLocked(now) && (t.Expiry.IsZero() || now.Before(t.Expiry)) {
		return t.AccessToken
	}
	return ""
}

// freshLocked reports whether the current token was obtained less than
// refreshFloor ago: no refresh is started for it before a server
// rejects it.
func (a *Authorizer) freshLocked(now time.Time) bool {
	return !a.gotToken.IsZero() && now.Sub(a.gotToken) < refreshFloor
}

func (a *Authorizer) canRefreshLocked() bool {
	return a.rec.Token != nil && a.rec.Token.RefreshToken != "" && a.rec.TokenEndpoint != ""
}

// save writes the record to the Store; a failure costs only a sign-in next
// time, so it is reported, not returned.
func (a *Authorizer) save(ctx context.Context, r *Record) {
	if err := a.store.Save(ctx, r); err != nil {
		a.logf("auth: saving the token for %s: %v", a.redacted, err)
	}
}

func (a *Authorizer) logf(format string, args ...any) {
	if a.opts.Logf != nil {
		a.opts.Logf(format, args...)
	}
}

// bearerToken returns the access token a request carried, with the
// Bearer or the DPoP scheme.
func bearerToken(req *http.Request) string {
	if req == nil {
		return ""
	}
	v := req.Header.Get("Authorization")
	if len(v) > 7 && strings.EqualFold(v[:7], "Bearer ") {
		return strings.TrimSpace(v[7:])
	}
	if len(v) > 5 && strings.EqualFold(v[:5], dpopScheme+" ") {
		return strings.TrimSpace(v[5:])
	}
	return ""
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
