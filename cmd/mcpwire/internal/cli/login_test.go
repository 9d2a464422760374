package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/mcptest"
)

// protected is an MCP server (mcptest) that wants OAuth tokens from its
// own small authorization server.
type protected struct {
	rs, as *httptest.Server
	mcp    *mcptest.HTTPHandler

	// deny makes the authorization server refuse every sign-in, as a
	// user who clicks "Deny" makes it.
	deny bool

	mu        sync.Mutex
	tokens    map[string]bool
	clientIDs []string // client_id of each authorization request
	secrets   []string // client secrets seen at the token endpoint
	n         int
	// issuer, when set, is the authorization server the resource
	// metadata names instead of as (a second one, say).
	issuer string
	// asRequests holds every request the authorization server got,
	// headers and body, to look for a secret in.
	asRequests []string
}

func newProtected(t *testing.T) *protected {
	p := &protected{tokens: map[string]bool{}}
	p.mcp = mcptest.NewDefault(nil).StreamableHTTPHandler(nil)
	p.rs = httptest.NewServer(http.HandlerFunc(p.serveRS))
	p.as = httptest.NewServer(http.HandlerFunc(p.serveAS))
	t.Cleanup(func() {
		p.rs.Close()
		p.as.Close()
		p.mcp.Close()
	})
	return p
}

func (p *protected) url() string { return p.rs.URL + "/mcp" }

func (p *protected) serveRS(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		p.mu.Lock()
		issuer := p.issuer
		p.mu.Unlock()
		if issuer == "" {
			issuer = p.as.URL
		}
		writeJSONResponse(w, map[string]any{"resource": p.url(), "authorization_servers": []string{issuer}})
	case "/mcp":
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		p.mu.Lock()
		ok := p.tokens[tok]
		p.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+p.rs.URL+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		p.mcp.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (p *protected) serveAS(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var dump bytes.Buffer
	r.Header.Write(&dump)
	p.mu.Lock()
	p.asRequests = append(p.asRequests, r.URL.String()+"\n"+dump.String()+string(body))
	p.mu.Unlock()
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		writeJSONResponse(w, map[string]any{
			"issuer": p.as.URL, "authorization_endpoint": p.as.URL + "/authorize", "token_endpoint": p.as.URL + "/token",
			"registration_endpoint": p.as.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none", "client_secret_post"},
		})
	case "/register":
		w.WriteHeader(http.StatusCreated)
		writeJSONResponse(w, map[string]any{"client_id": "dyn-client"})
	case "/authorize":
		q := r.URL.Query()
		p.mu.Lock()
		p.clientIDs = append(p.clientIDs, q.Get("client_id"))
		p.mu.Unlock()
		if p.deny {
			http.Redirect(w, r, q.Get("redirect_uri")+"?error=access_denied&state="+q.Get("state"), http.StatusFound)
			return
		}
		http.Redirect(w, r, q.Get("redirect_uri")+"?code=the-code&state="+q.Get("state"), http.StatusFound)
	case "/token":
		r.ParseForm()
		p.mu.Lock()
		p.n++
		tok := fmt.Sprintf("tok-SECRET-%d", p.n)
		p.tokens[tok] = true
		p.secrets = append(p.secrets, r.PostForm.Get("client_secret"))
		p.mu.Unlock()
		writeJSONResponse(w, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-SECRET"})
	default:
		http.NotFound(w, r)
	}
}

func writeJSONResponse(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// userAtBrowser watches mcpwire's stderr for the sign-in URL and follows
// it, as a user who copies the URL into a browser and approves would.
type userAtBrowser struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	visited bool
	wg      sync.WaitGroup
}

var authorizeURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/authorize\?\S+`)

func (u *userAtBrowser) Write(b []byte) (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.buf.Write(b)
	if m := authorizeURL.FindString(u.buf.String()); m != "" && !u.visited {
		u.visited = true
		u.wg.Add(1)
		go func() {
			defer u.wg.Done()
			resp, err := http.Get(m) // follows the redirect to mcpwire's listener
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	return len(b), nil
}

func (u *userAtBrowser) String() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.buf.String()
}

type loginResult struct {
	out, err string
	code     int
}

func runLogin(t *testing.T, errOut io.Writer, args ...string) loginResult {
	t.Helper()
	var out, errBuf bytes.Buffer
	if errOut == nil {
		errOut = &errBuf
	}
	streams := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: errOut}
	code := Main(context.Background(), streams, args)
	r := loginResult{out: out.String(), err: errBuf.String(), code: code}
	if u, ok := errOut.(*userAtBrowser); ok {
		u.wg.Wait()
		r.err = u.String()
	}
	return r
}

func TestLoginStatusUseLogout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tokens")
	t.Setenv(signin.DirEnv, dir)
	p := newProtected(t)

	// Without a token, a script (no terminal) is told how to get one.
	r := runLogin(t, nil, "tools", p.url())
	if r.code != ExitConnect || !strings.Contains(r.err, "mcpwire login") || !strings.Contains(r.err, "--bearer-token-env NAME") {
		t.Fatalf("tools before login: exit %d, stderr %q; want hints to sign in or to pass a fixed token", r.code, r.err)
	}

	r = runLogin(t, &userAtBrowser{}, "login", "--no-browser", p.url())
	if r.code != 0 || !strings.Contains(r.out, "Signed in to "+p.url()) || !strings.Contains(r.err, "open this URL") {
		t.Fatalf("login: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Fatalf("token store holds %d files, want 1", len(files))
	}
	if info, _ := files[0].Info(); info.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", info.Mode().Perm())
	}

	r = runLogin(t, nil, "tools", p.url())
	if r.code != 0 || !strings.Contains(r.out, "echo") {
		t.Fatalf("tools after login: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}

	r = runLogin(t, nil, "auth", "status")
	if r.code != 0 || !strings.Contains(r.out, p.url()) || !strings.Contains(r.out, "valid until") || !strings.Contains(r.out, "dyn-client") {
		t.Errorf("auth status: exit %d, stdout %q", r.code, r.out)
	}
	r = runLogin(t, nil, "auth", "status", "--json")
	var lines []map[string]any
	if err := json.Unmarshal([]byte(r.out), &lines); err != nil || len(lines) != 1 || lines[0]["valid"] != true || lines[0]["refreshable"] != true {
		t.Errorf("auth status --json = %s (%v)", r.out, err)
	}

	r = runLogin(t, nil, "logout", p.url())
	if r.code != 0 || !strings.Contains(r.out, "Signed out") {
		t.Errorf("logout: exit %d, stdout %q", r.code, r.out)
	}
	r = runLogin(t, nil, "auth", "status")
	if !strings.Contains(r.out, "No stored tokens") {
		t.Errorf("auth status after logout: %q", r.out)
	}
	r = runLogin(t, nil, "logout", p.url())
	if !strings.Contains(r.out, "No stored tokens for") {
		t.Errorf("second logout: %q", r.out)
	}
}

func TestLoginConfiguredServerWithOAuthBlock(t *testing.T) {
	t.Setenv(signin.DirEnv, t.TempDir())
	t.Setenv("MCPWIRE_TEST_OAUTH_SECRET", "client-SECRET-in-env")
	p := newProtected(t)
	cfg := filepath.Join(t.TempDir(), "mcpwire.json")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`{"servers": {"remote": {"url": %q, "oauth": {"clientId": "pre-registered", "clientSecret": "${MCPWIRE_TEST_OAUTH_SECRET}"}}}}`, p.url())), 0o600)

	r0 := runLogin(t, nil, "tools", "--config", cfg)
	if r0.code != ExitConnect || !strings.Contains(r0.err, "mcpwire login") || !strings.Contains(r0.err, `the server's "headers"`) {
		t.Errorf("tools before login: exit %d, stderr %q; want a hint to sign in", r0.code, r0.err)
	}
	r := runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--verbose", "--config", cfg, "remote")
	if r.code != 0 || !strings.Contains(r.out, `Signed in to server "remote"`) {
		t.Fatalf("login: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	// The configured server is started by the manager with the stored
	// token, headless.
	r2 := runLogin(t, nil, "tools", "--config", cfg)
	if r2.code != 0 || !strings.Contains(r2.out, "echo") {
		t.Errorf("tools on the configured server: exit %d\nstdout %q\nstderr %q", r2.code, r2.out, r2.err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.clientIDs) != 1 || p.clientIDs[0] != "pre-registered" || p.secrets[0] != "client-SECRET-in-env" {
		t.Errorf("authorization used client %q with secret %q", p.clientIDs, p.secrets)
	}
	for _, s := range []string{"SECRET"} {
		if strings.Contains(r.out+r.err+r2.out+r2.err, s) {
			t.Errorf("a secret was printed:\nstdout %q\nstderr %q", r.out+r2.out, r.err+r2.err)
		}
	}
}

func TestLoginProblems(t *testing.T) {
	t.Setenv(signin.DirEnv, t.TempDir())
	open := httpServer(t) // an MCP server that wants no token
	r := runLogin(t, nil, "login", open.URL)
	if r.code != 0 || !strings.Contains(r.out, "does not ask for authorization") {
		t.Errorf("login to an open server: exit %d, stdout %q, stderr %q", r.code, r.out, r.err)
	}
	// A URL with nothing behind it (a mistyped path) is no success.
	nothing := httptest.NewServer(http.NotFoundHandler())
	defer nothing.Close()
	r = runLogin(t, nil, "login", nothing.URL+"/mcp")
	if r.code != ExitConnect || !strings.Contains(r.err, "404 Not Found") || !strings.Contains(r.err, "no MCP server is at that URL") {
		t.Errorf("login to a 404: exit %d, stdout %q, stderr %q; want exit %d naming the 404", r.code, r.out, r.err, ExitConnect)
	}
	cfg := filepath.Join(t.TempDir(), "mcpwire.json")
	os.WriteFile(cfg, []byte(`{"servers": {"local": {"command": "true"}}}`), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"login", "--config", cfg, "nope"}, `no configured server is named "nope"`},
		{[]string{"login", "--config", cfg, "local"}, "runs over stdio"},
		{[]string{"login"}, "URL|SERVER"},
		{[]string{"login", "--", "server-cmd"}, "stdio servers need no sign-in"},
		{[]string{"auth", "list"}, "usage: mcpwire auth status"},
	} {
		r := runLogin(t, nil, tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.err, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want usage error %q", tc.args, r.code, r.err, tc.want)
		}
	}
}
