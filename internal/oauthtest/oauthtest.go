// Package oauthtest serves a protected MCP endpoint and its OAuth
// authorization server on loopback, for tests of sign-in flows that run a
// real browser or a real HTTP client: protected resource metadata
// (RFC 9728), authorization server metadata (RFC 8414), dynamic client
// registration (RFC 7591), and an authorization endpoint that approves at
// once (no login form: the "user" always says yes) and checks PKCE at the
// token endpoint.
package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// Server is the protected resource and its authorization server, each on
// its own loopback port.
type Server struct {
	// URL is the protected MCP endpoint, http://127.0.0.1:PORT/mcp.
	URL string
	// Issuer is the authorization server's issuer.
	Issuer string

	rs, as *httptest.Server
	mcp    http.Handler

	mu      sync.Mutex
	deny    int // the next deny authorizations answer access_denied
	codes   map[string]grant
	tokens  map[string]bool
	signIns int // authorizations approved
}

type grant struct{ challenge, redirect, client string }

// Start serves mcp behind a Bearer token check until Close. Requests
// without a token this server issued get a 401 naming the resource
// metadata, as the MCP authorization specification asks.
func Start(mcp http.Handler) *Server {
	s := &Server{mcp: mcp, codes: map[string]grant{}, tokens: map[string]bool{}}
	s.rs = httptest.NewServer(http.HandlerFunc(s.serveResource))
	s.as = httptest.NewServer(http.HandlerFunc(s.serveAuthorization))
	s.URL, s.Issuer = s.rs.URL+"/mcp", s.as.URL
	return s
}

// Close stops both servers.
func (s *Server) Close() {
	s.rs.Close()
	s.as.Close()
}

// DenyNext makes the next n authorizations answer access_denied, as a
// user who clicks "Deny" would.
func (s *Server) DenyNext(n int) {
	s.mu.Lock()
	s.deny = n
	s.mu.Unlock()
}

// SignIns is how many authorizations were approved.
func (s *Server) SignIns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signIns
}

// Tokens are the access tokens issued so far (to check that none leaks).
func (s *Server) Tokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for t := range s.tokens {
		out = append(out, t)
	}
	return out
}

// RevokeAll forgets every token issued: the next request needs a new
// sign-in (there are no refresh tokens).
func (s *Server) RevokeAll() {
	s.mu.Lock()
	clear(s.tokens)
	s.mu.Unlock()
}

func (s *Server) prmURL() string { return s.rs.URL + "/.well-known/oauth-protected-resource/mcp" }

func (s *Server) serveResource(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		writeJSON(w, http.StatusOK, map[string]any{"resource": s.URL, "authorization_servers": []string{s.Issuer}})
	case "/mcp":
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		ok = ok && s.tokens[tok]
		s.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.prmURL()+`"`)
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return
		}
		s.mcp.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) serveAuthorization(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer": s.Issuer, "authorization_endpoint": s.Issuer + "/authorize", "token_endpoint": s.Issuer + "/token",
			"registration_endpoint": s.Issuer + "/register", "code_challenge_methods_supported": []string{"S256"},
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	case "/register":
		var in struct {
			RedirectURIs []string `json:"redirect_uris"`
		}
		if json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&in) != nil || len(in.RedirectURIs) == 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
			return
		}
		writeJSON(w, http.StatusCreated, map[string]any{"client_id": "client-" + random(), "redirect_uris": in.RedirectURIs, "token_endpoint_auth_method": "none"})
	case "/authorize":
		s.authorize(w, r)
	case "/token":
		s.token(w, r)
	default:
		http.NotFound(w, r)
	}
}

// authorize approves at once: it redirects to the client's loopback
// redirect URI with a code, or with access_denied when told to deny.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Scheme != "http" || redirect.Hostname() != "127.0.0.1" {
		http.Error(w, "the redirect_uri must be a loopback http URI", http.StatusBadRequest)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") != s.URL {
		http.Error(w, "a code request with an S256 challenge for "+s.URL+" is required", http.StatusBadRequest)
		return
	}
	answer := url.Values{"state": {q.Get("state")}}
	s.mu.Lock()
	if s.deny > 0 {
		s.deny--
		answer.Set("error", "access_denied")
		answer.Set("error_description", "the user said no")
	} else {
		code := random()
		s.codes[code] = grant{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), client: q.Get("client_id")}
		s.signIns++
		answer.Set("code", code)
	}
	s.mu.Unlock()
	redirect.RawQuery = answer.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// token trades a code for an access token, checking the PKCE verifier,
// the redirect URI and the client.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "authorization_code" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	f := r.PostForm
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	s.mu.Lock()
	g, ok := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code"))
	ok = ok && g.challenge == base64.RawURLEncoding.EncodeToString(sum[:]) && g.redirect == f.Get("redirect_uri") && g.client == f.Get("client_id")
	tok := "at-" + random()
	if ok {
		s.tokens[tok] = true
	}
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
}

func random() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
