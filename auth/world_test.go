package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// world is a protected MCP endpoint (rs) and its authorization server
// (as), both real HTTP servers on loopback, scripted by the knobs below and
// recording what clients do.
type world struct {
	t  *testing.T
	rs *httptest.Server
	as *httptest.Server

	mu sync.Mutex

	// Resource server knobs.
	mcpPath        string              // the MCP endpoint; default "/mcp"
	prmPath        string              // where the resource metadata lives; "" none
	prmInHeader    bool                // name it in the 401 challenge
	prmResource    string              // overrides the metadata's resource
	prmScopes      []string            // scopes_supported of the resource metadata
	prmStatus      int                 // non-zero: answer the metadata with this status
	challengeScope string              // scope in the 401 challenge
	required       map[string][]string // JSON-RPC method -> scopes it needs (403 otherwise)
	rejectAll      bool                // every token is insufficient (403)
	htmlPaths      map[string]bool     // answered 200 with a web page
	// mcpHook, when set, sees each MCP request first (under mu) and may
	// answer it itself.
	mcpHook func(rw http.ResponseWriter, r *http.Request) (handled bool)

	// Authorization server knobs.
	combined         bool           // the resource server is its own AS (2025-03-26)
	issuerPath       string         // path of the issuer, e.g. "/tenant1"
	metaPath         string         // where the AS metadata lives; default RFC 8414 for the issuer
	metaIssuer       string         // overrides the metadata's issuer
	metaExtra        map[string]any // set in (or override) the AS metadata
	noMeta           bool           // no AS metadata at all
	pkce             []string       // code_challenge_methods_supported; nil omits it
	authMethods      []string       // token_endpoint_auth_methods_supported
	asScopes         []string       // scopes_supported
	cimd             bool           // client_id_metadata_document_supported
	noRegister       bool           // no registration endpoint
	regMethod        string         // token_endpoint_auth_method the registration answers with
	regSecret        string         // client_secret the registration hands out
	issueRefresh     bool           // hand out refresh tokens
	expiresIn        int            // expires_in of tokens; 0 omits it
	tokenHook        func(form url.Values, r *http.Request) (status int, body string, handled bool)
	tokenReplyHeader http.Header                   // set by tokenHook: headers of the reply it makes
	tokenGate        chan struct{}                 // when set, the token endpoint waits for it to close
	tokenEntered     chan struct{}                 // when set, receives once per token request entering
	authzHook        func(q url.Values) url.Values // rewrites the redirect's query

	// Records.
	hits       []string // "RS GET /path", "AS POST /token"
	authorizeQ []url.Values
	tokenForms []url.Values
	tokenAuthz []string // Authorization headers of token requests
	regBodies  []map[string]any
	codes      map[string]codeGrant
	tokens     map[string][]string // access token -> scopes
	refreshes  map[string][]string // refresh token -> scopes
	n          int
}

type codeGrant struct {
	challenge string
	scopes    []string
	client    string
	redirect  string
	resource  string
}

func newWorld(t *testing.T) *world {
	w := &world{
		t:           t,
		mcpPath:     "/mcp",
		prmPath:     "/.well-known/oauth-protected-resource/mcp",
		prmInHeader: true,
		pkce:        []string{"S256"},
		authMethods: []string{"none", "client_secret_basic", "client_secret_post"},
		codes:       map[string]codeGrant{},
		tokens:      map[string][]string{},
		refreshes:   map[string][]string{},
		required:    map[string][]string{},
	}
	w.rs = httptest.NewServer(http.HandlerFunc(w.serveRS))
	w.as = httptest.NewServer(http.HandlerFunc(w.serveAS))
	t.Cleanup(w.rs.Close)
	t.Cleanup(w.as.Close)
	return w
}

func (w *world) serverURL() string { return w.rs.URL + w.mcpPath }
func (w *world) issuer() string    { return w.asBase() + w.issuerPath }

func (w *world) asBase() string {
	if w.combined {
		return w.rs.URL
	}
	return w.as.URL
}

func (w *world) record(side string, r *http.Request) {
	w.mu.Lock()
	w.hits = append(w.hits, side+" "+r.Method+" "+r.URL.Path)
	w.mu.Unlock()
}

// hitsOf returns the recorded requests that start with prefix.
func (w *world) hitsOf(prefix string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, h := range w.hits {
		if strings.HasPrefix(h, prefix) {
			out = append(out, h)
		}
	}
	return out
}

func (w *world) serveRS(rw http.ResponseWriter, r *http.Request) {
	if w.combined && r.URL.Path != w.mcpPath && r.URL.Path != w.prmPath {
		w.serveAS(rw, r)
		return
	}
	w.record("RS", r)
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.htmlPaths[r.URL.Path]:
		rw.Header().Set("Content-Type", "text/html")
		io.WriteString(rw, "<!doctype html><title>app</title>")
	case w.prmPath != "" && r.URL.Path == w.prmPath && r.Method == http.MethodGet:
		if w.prmStatus != 0 {
			http.Error(rw, "metadata trouble", w.prmStatus)
			return
		}
		resource := w.serverURL()
		if w.prmResource != "" {
			resource = w.prmResource
		}
		m := map[string]any{"resource": resource, "authorization_servers": []string{w.issuer()}}
		if w.prmScopes != nil {
			m["scopes_supported"] = w.prmScopes
		}
		writeJSON(rw, http.StatusOK, m)
	case r.URL.Path == w.mcpPath && r.Method == http.MethodPost:
		w.serveMCP(rw, r)
	default:
		http.NotFound(rw, r)
	}
}

func (w *world) serveMCP(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &req)
	challenge := func(status int, extra string) {
		parts := []string{}
		if w.prmInHeader {
			parts = append(parts, fmt.Sprintf(`resource_metadata="%s%s"`, w.rs.URL, w.prmPath))
		}
		if extra != "" {
			parts = append(parts, extra)
		}
		v := "Bearer"
		if len(parts) > 0 {
			v += " " + strings.Join(parts, ", ")
		}
		rw.Header().Set("WWW-Authenticate", v)
		rw.WriteHeader(status)
	}
	if w.mcpHook != nil && w.mcpHook(rw, r) {
		return
	}
	tok := bearerToken(r)
	scopes, known := w.tokens[tok]
	if !known {
		extra := `error="invalid_token"`
		if w.challengeScope != "" {
			extra += fmt.Sprintf(`, scope="%s"`, w.challengeScope)
		}
		challenge(http.StatusUnauthorized, extra)
		return
	}
	need := w.required[req.Method]
	if w.rejectAll || !containsAll(scopes, need) {
		want := strings.Join(need, " ")
		if w.rejectAll {
			want = "admin"
		}
		challenge(http.StatusForbidden, fmt.Sprintf(`error="insufficient_scope", scope="%s"`, want))
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":%s,"result":{}}`, req.ID)
}

func containsAll(have, need []string) bool {
	for _, n := range need {
		if !slices.Contains(have, n) {
			return false
		}
	}
	return true
}

func (w *world) metadataPath() string {
	if w.metaPath != "" {
		return w.metaPath
	}
	return "/.well-known/oauth-authorization-server" + w.issuerPath
}

func (w *world) serveAS(rw http.ResponseWriter, r *http.Request) {
	w.record("AS", r)
	if r.URL.Path == w.issuerPath+"/token" && r.Method == http.MethodPost {
		w.serveToken(rw, r)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case !w.noMeta && r.URL.Path == w.metadataPath() && r.Method == http.MethodGet:
		m := map[string]any{
			"issuer":                                w.issuer(),
			"authorization_endpoint":                w.issuer() + "/authorize",
			"token_endpoint":                        w.issuer() + "/token",
			"response_types_supported":              []string{"code"},
			"token_endpoint_auth_methods_supported": w.authMethods,
		}
		if w.metaIssuer != "" {
			m["issuer"] = w.metaIssuer
		}
		if !w.noRegister {
			m["registration_endpoint"] = w.issuer() + "/register"
		}
		if w.pkce != nil {
			m["code_challenge_methods_supported"] = w.pkce
		}
		if w.asScopes != nil {
			m["scopes_supported"] = w.asScopes
		}
		if w.cimd {
			m["client_id_metadata_document_supported"] = true
		}
		for k, v := range w.metaExtra {
			m[k] = v
		}
		writeJSON(rw, http.StatusOK, m)
	case r.URL.Path == w.issuerPath+"/authorize" && r.Method == http.MethodGet:
		q := r.URL.Query()
		w.authorizeQ = append(w.authorizeQ, q)
		code := fmt.Sprintf("code-%d", len(w.authorizeQ))
		w.codes[code] = codeGrant{
			challenge: q.Get("code_challenge"),
			scopes:    strings.Fields(q.Get("scope")),
			client:    q.Get("client_id"),
			redirect:  q.Get("redirect_uri"),
			resource:  q.Get("resource"),
		}
		back := url.Values{"code": {code}, "state": {q.Get("state")}}
		if w.authzHook != nil {
			back = w.authzHook(back)
		}
		http.Redirect(rw, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
	case r.URL.Path == w.issuerPath+"/register" && r.Method == http.MethodPost && !w.noRegister:
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		w.regBodies = append(w.regBodies, body)
		reply := map[string]any{"client_id": fmt.Sprintf("dyn-client-%d", len(w.regBodies))}
		if w.regSecret != "" {
			reply["client_secret"] = w.regSecret
		}
		if w.regMethod != "" {
			reply["token_endpoint_auth_method"] = w.regMethod
		}
		writeJSON(rw, http.StatusCreated, reply)
	default:
		http.NotFound(rw, r)
	}
}

func (w *world) serveToken(rw http.ResponseWriter, r *http.Request) {
	if w.tokenEntered != nil {
		w.tokenEntered <- struct{}{}
	}
	if w.tokenGate != nil {
		<-w.tokenGate
	}
	r.ParseForm()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tokenForms = append(w.tokenForms, r.PostForm)
	w.tokenAuthz = append(w.tokenAuthz, r.Header.Get("Authorization"))
	if w.tokenHook != nil {
		if status, body, handled := w.tokenHook(r.PostForm, r); handled {
			for k, v := range w.tokenReplyHeader {
				rw.Header()[k] = v
			}
			w.tokenReplyHeader = nil
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(status)
			io.WriteString(rw, body)
			return
		}
	}
	var scopes []string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		g, ok := w.codes[r.PostForm.Get("code")]
		delete(w.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		switch {
		case !ok:
			writeJSON(rw, 400, map[string]string{"error": "invalid_grant", "error_description": "unknown code"})
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			writeJSON(rw, 400, map[string]string{"error": "invalid_grant", "error_description": "PKCE verifier mismatch"})
			return
		case r.PostForm.Get("redirect_uri") != g.redirect || r.PostForm.Get("resource") != g.resource:
			writeJSON(rw, 400, map[string]string{"error": "invalid_grant", "error_description": "redirect_uri or resource differ"})
			return
		}
		scopes = g.scopes
	case "refresh_token":
		s, ok := w.refreshes[r.PostForm.Get("refresh_token")]
		if !ok {
			writeJSON(rw, 400, map[string]string{"error": "invalid_grant", "error_description": "refresh token revoked"})
			return
		}
		delete(w.refreshes, r.PostForm.Get("refresh_token")) // rotation
		scopes = s
	default:
		scopes = strings.Fields(r.PostForm.Get("scope"))
	}
	w.n++
	at := fmt.Sprintf("at-%d", w.n)
	w.tokens[at] = scopes
	reply := map[string]any{"access_token": at, "token_type": "Bearer"}
	if len(scopes) > 0 {
		reply["scope"] = strings.Join(scopes, " ")
	}
	if w.expiresIn > 0 {
		reply["expires_in"] = w.expiresIn
	}
	if w.issueRefresh {
		rt := fmt.Sprintf("rt-%d", w.n)
		w.refreshes[rt] = scopes
		reply["refresh_token"] = rt
	}
	writeJSON(rw, http.StatusOK, reply)
}

func writeJSON(rw http.ResponseWriter, status int, v any) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	json.NewEncoder(rw).Encode(v)
}

// approver is a UserAgent that approves at once: it follows the
// authorization URL and reads the redirect back, as a browser would after
// the user said yes.
type approver struct {
	mu     sync.Mutex
	opened int
	urls   []string
}

const testRedirect = "http://127.0.0.1:9/callback"

func (a *approver) Open(context.Context) (Callback, error) {
	a.mu.Lock()
	a.opened++
	a.mu.Unlock()
	return &approverCallback{a: a}, nil
}

func (a *approver) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.opened
}

type approverCallback struct{ a *approver }

func (c *approverCallback) RedirectURI() string { return testRedirect }
func (c *approverCallback) Close() error        { return nil }

func (c *approverCallback) Await(ctx context.Context, authURL string) (url.Values, error) {
	c.a.mu.Lock()
	c.a.urls = append(c.a.urls, authURL)
	c.a.mu.Unlock()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("no redirect back (%s)", resp.Status)
	}
	return loc.Query(), nil
}

// refusingAgent fails every sign-in with err.
type refusingAgent struct {
	err    error
	mu     sync.Mutex
	opened int
}

func (r *refusingAgent) Open(context.Context) (Callback, error) {
	r.mu.Lock()
	r.opened++
	r.mu.Unlock()
	return r, nil
}
func (r *refusingAgent) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opened
}

func (r *refusingAgent) RedirectURI() string { return testRedirect }
func (r *refusingAgent) Close() error        { return nil }
func (r *refusingAgent) Await(context.Context, string) (url.Values, error) {
	return nil, r.err
}

// call sends one JSON-RPC request through the real Streamable HTTP
// transport with a as its Authorizer and returns the transport's error.
func call(t *testing.T, w *world, a *Authorizer, method string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := (&transport.StreamableHTTP{URL: w.serverURL(), Auth: a, DisableListener: true}).Connect(ctx)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer st.Close()
	req, err := jsonrpc.NewRequest(jsonrpc.Int64ID(1), method, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Write(ctx, req); err != nil {
		return err
	}
	msg, err := st.Read(ctx)
	if err != nil {
		return err
	}
	if r, ok := msg.(*jsonrpc.Response); !ok || r.Error != nil {
		return fmt.Errorf("unexpected reply %#v", msg)
	}
	return nil
}

// mustCall is call that must succeed.
func mustCall(t *testing.T, w *world, a *Authorizer, method string) {
	t.Helper()
	if err := call(t, w, a, method); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

// newAuth builds an Authorizer for w's server, with an approving user
// agent unless opts says otherwise.
func newAuth(t *testing.T, w *world, opts *Options) *Authorizer {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	if opts.UserAgent == nil && opts.Grant == "" {
		opts.UserAgent = &approver{}
	}
	opts.Logf = t.Logf
	a, err := New(w.serverURL(), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return a
}

// lastAuthorize returns the query of the latest authorization request.
func (w *world) lastAuthorize(t *testing.T) url.Values {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.authorizeQ) == 0 {
		t.Fatal("no authorization request was made")
	}
	return w.authorizeQ[len(w.authorizeQ)-1]
}

func (w *world) authorizeCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.authorizeQ)
}

func (w *world) tokenRequests() []url.Values {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.tokenForms)
}

func isAuthErr(err error, target error) bool {
	var ae *transport.AuthorizationError
	return errors.As(err, &ae) && errors.Is(err, target)
}

// fakeResponse is a reply with a WWW-Authenticate header to a request that
// carried token (none when "").
func fakeResponse(status int, wwwAuthenticate, token string) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:9/mcp", nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	h := http.Header{}
	if wwwAuthenticate != "" {
		h.Set("WWW-Authenticate", wwwAuthenticate)
	}
	return &http.Response{StatusCode: status, Header: h, Request: req, Body: http.NoBody}
}
