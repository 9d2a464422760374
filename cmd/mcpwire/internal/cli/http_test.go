package cli

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestURLUnreachable(t *testing.T) {
	t.Parallel()
	// A port that was just free: nothing listens there.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := run(t, "tools", "http://"+addr+"/mcp").wantCode(t, ExitConnect)
	if !strings.HasPrefix(r.err, "mcpwire: cannot connect to http://"+addr+"/mcp: ") {
		t.Errorf("stderr = %q", r.err)
	}
}

// leakyServer refuses every request with 401 and repeats the credentials
// it got in its answer, the worst case for keeping secrets off the screen.
type leakyServer struct {
	mu   sync.Mutex
	seen []http.Header
}

func (s *leakyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Clone())
	s.mu.Unlock()
	creds := r.Header.Get("Authorization") + " " + r.Header.Get("X-Api-Key")
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", error_description="rejected `+creds+`"`)
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusUnauthorized)
	io.WriteString(w, "credentials "+creds+" are not valid here")
}

func (s *leakyServer) headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen
}

func TestSecretsNeverShown(t *testing.T) {
	const token = "tok-9f8e7d6c5b4a"
	const apiKey = "key-0a1b2c3d4e5f"
	t.Setenv("MCPWIRE_TEST_BEARER", token)
	srv := &leakyServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	for _, transport := range []string{"auto", "http", "sse"} {
		r := run(t, "tools", "--transport", transport, "--verbose", "--bearer-token-env", "MCPWIRE_TEST_BEARER",
			"--header", "X-Api-Key: "+apiKey, hs.URL+"/mcp?api_key=q-"+apiKey)
		if r.code != ExitConnect {
			t.Errorf("--transport %s: exit %d, want %d; stderr %q", transport, r.code, ExitConnect, r.err)
		}
		for _, secret := range []string{token, apiKey} {
			if strings.Contains(r.out+r.err, secret) {
				t.Errorf("--transport %s: output shows a secret:\nstdout %q\nstderr %q", transport, r.out, r.err)
			}
		}
		if !strings.Contains(r.err, "401") {
			t.Errorf("--transport %s: stderr does not say what happened: %q", transport, r.err)
		}
	}
	// The credentials did reach the server.
	seen := srv.headers()
	if len(seen) == 0 {
		t.Fatal("the server saw no request")
	}
	for _, h := range seen {
		if h.Get("Authorization") != "Bearer "+token || h.Get("X-Api-Key") != apiKey {
			t.Errorf("server got Authorization %q, X-Api-Key %q", h.Get("Authorization"), h.Get("X-Api-Key"))
		}
	}
}

func TestSecretsNotInUsageErrors(t *testing.T) {
	t.Parallel()
	const token = "tok-1a2b3c4d5e6f"
	// An unquoted header value splits into stray arguments.
	r := run(t, "tools", "--header", "Authorization:", "Bearer", token, "http://127.0.0.1:1/mcp")
	r.wantCode(t, ExitUsage)
	if strings.Contains(r.err, token) {
		t.Errorf("stderr shows the token: %q", r.err)
	}
	r = run(t, "tools", "--header", "Authorization "+token, "http://127.0.0.1:1/mcp").wantCode(t, ExitUsage)
	if strings.Contains(r.err, token) {
		t.Errorf("stderr shows the token: %q", r.err)
	}
	r = run(t, "tools", "--env", "TOKEN="+token, "http://127.0.0.1:1/mcp").wantCode(t, ExitUsage)
	if strings.Contains(r.err, token) {
		t.Errorf("stderr shows the env value: %q", r.err)
	}
}
