package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A mistyped URL (a 404, no resource metadata) is an error that says so,
// not ErrNotProtected: "mcpwire login" told the user "nothing to sign in
// to" and exited 0 for a path with no server behind it.
func TestLoginToAPathWithNoServer(t *testing.T) {
	w := newWorld(t)
	a, err := New(w.rs.URL+"/nothere", &Options{UserAgent: &approver{}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Login(t.Context())
	if err == nil || errors.Is(err, ErrNotProtected) || !strings.Contains(err.Error(), "404 Not Found") || !strings.Contains(err.Error(), w.rs.URL+"/nothere") {
		t.Fatalf("Login = %v; want an error naming the URL and its 404", err)
	}
	if w.authorizeCount() != 0 {
		t.Error("a sign-in was started for a URL with no server")
	}
}

// A legacy HTTP+SSE endpoint that takes only GET, and asks for
// credentials there, is probed with a GET once its POST is refused: its
// challenge is followed, rather than "nothing to sign in to".
func TestLoginProbesALegacySSEEndpointWithGET(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch {
		case r.URL.Path == "/sse" && r.Method == http.MethodGet:
			rw.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/prm"`)
			http.Error(rw, "sign in", http.StatusUnauthorized)
		case r.URL.Path == "/sse":
			http.Error(rw, "GET only", http.StatusMethodNotAllowed)
		default:
			http.NotFound(rw, r)
		}
	}))
	defer srv.Close()
	a, err := New(srv.URL+"/sse", &Options{UserAgent: &approver{}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Login(t.Context())
	if err == nil || errors.Is(err, ErrNotProtected) {
		t.Fatalf("Login = %v; want the challenge followed (to its missing metadata)", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(seen, ","), "GET /prm") {
		t.Errorf("requests %q: the GET's challenge was not followed", seen)
	}
}
