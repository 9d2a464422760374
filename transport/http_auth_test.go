package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// fakeAuthorizer hands out "tok-N" tokens: Challenge moves to the next one.
type fakeAuthorizer struct {
	mu         sync.Mutex
	token      string
	next       []string // tokens Challenge hands out, in order
	challenges []int    // statuses seen by Challenge
	accepted   int
	fail       error // returned by Challenge when set
	noRetry    bool
	authorized []string // URLs Authorize was called for
}

func (f *fakeAuthorizer) Authorize(ctx context.Context, req *http.Request) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.authorized = append(f.authorized, req.URL.String())
	if f.token != "" {
		req.Header.Set("Authorization", "Bearer "+f.token)
	}
	return nil
}

func (f *fakeAuthorizer) Challenge(ctx context.Context, resp *http.Response) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.challenges = append(f.challenges, resp.StatusCode)
	if f.fail != nil {
		return false, f.fail
	}
	if f.noRetry || len(f.next) == 0 {
		return false, nil
	}
	f.token, f.next = f.next[0], f.next[1:]
	return true, nil
}

func (f *fakeAuthorizer) Accepted(req *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.accepted++
}

// bearerServer answers POSTs with a JSON-RPC result when the request
// carries "Bearer good", 401 with a challenge otherwise. It records the
// bodies it saw.
type bearerServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	auths  []string
}

func newBearerServer(t *testing.T) *bearerServer {
	bs := &bearerServer{}
	bs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bs.mu.Lock()
		bs.bodies = append(bs.bodies, string(body))
		bs.auths = append(bs.auths, r.Header.Get("Authorization"))
		bs.mu.Unlock()
		switch {
		case r.Method != http.MethodPost:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case r.Header.Get("Authorization") != "Bearer good":
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
			w.WriteHeader(http.StatusUnauthorized)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`)
		}
	}))
	t.Cleanup(bs.Close)
	return bs
}

func TestAuthorizerChallengeRetriesWithTheSameBody(t *testing.T) {
	srv := newBearerServer(t)
	auth := &fakeAuthorizer{next: []string{"good"}}
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, Auth: auth, DisableListener: true})
	req := httpRequest(t, 1, "ping", nil)
	httpWrite(t, s, req)
	httpReadResponse(t, s, 1)

	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.bodies) != 2 || srv.bodies[0] != srv.bodies[1] || srv.bodies[1] != httpEncode(t, req) {
		t.Errorf("bodies = %q, want the request twice", srv.bodies)
	}
	if srv.auths[0] != "" || srv.auths[1] != "Bearer good" {
		t.Errorf("Authorization headers = %q", srv.auths)
	}
	if len(auth.challenges) != 1 || auth.challenges[0] != 401 || auth.accepted != 1 {
		t.Errorf("challenges = %v, accepted = %d", auth.challenges, auth.accepted)
	}
}

func TestAuthorizerFailureIsAnAuthorizationError(t *testing.T) {
	srv := newBearerServer(t)
	cause := errors.New("the user cancelled")
	auth := &fakeAuthorizer{fail: cause}
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, Auth: auth, DisableListener: true})
	err := s.Write(t.Context(), httpRequest(t, 1, "ping", nil))
	var ae *AuthorizationError
	if !errors.As(err, &ae) || ae.StatusCode != 401 || !errors.Is(err, cause) {
		t.Fatalf("Write error = %v, want an *AuthorizationError for 401 wrapping the cause", err)
	}
}

func TestAuthorizerDecliningLeavesTheHTTPError(t *testing.T) {
	srv := newBearerServer(t)
	auth := &fakeAuthorizer{noRetry: true}
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, Auth: auth, DisableListener: true})
	err := s.Write(t.Context(), httpRequest(t, 1, "ping", nil))
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 401 || !strings.Contains(he.WWWAuthenticate, "resource_metadata") {
		t.Fatalf("Write error = %v, want the 401 *HTTPError", err)
	}
}

func TestAuthorizerRetriesAreBounded(t *testing.T) {
	srv := newBearerServer(t)
	// An Authorizer that always says "retry" with a token the server
	// never accepts must not make the transport loop.
	auth := &fakeAuthorizer{next: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}}
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, Auth: auth, DisableListener: true})
	err := s.Write(t.Context(), httpRequest(t, 1, "ping", nil))
	if !IsHTTPStatus(err, 401) {
		t.Fatalf("Write error = %v, want the final 401", err)
	}
	if got := len(auth.challenges); got != maxAuthRetries {
		t.Errorf("Challenge called %d times, want %d", got, maxAuthRetries)
	}
}

func TestAuthorizerNotAskedForOtherOrigins(t *testing.T) {
	// The server redirects to another origin: the credentials must not
	// follow, and the Authorizer must not be consulted for that origin.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the other origin received an Authorization header")
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer other.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			t.Errorf("home origin: Authorization = %q", r.Header.Get("Authorization"))
		}
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer home.Close()
	auth := &fakeAuthorizer{token: "good"}
	s := httpConnect(t, &StreamableHTTP{URL: home.URL + "/mcp", Auth: auth, DisableListener: true})
	httpWrite(t, s, httpRequest(t, 1, "ping", nil))
	httpReadResponse(t, s, 1)
	auth.mu.Lock()
	defer auth.mu.Unlock()
	if len(auth.authorized) != 1 || !strings.HasPrefix(auth.authorized[0], home.URL) {
		t.Errorf("Authorize called for %q, want only the home origin", auth.authorized)
	}
}

func TestAuthorizerNotChallengedOnDelete(t *testing.T) {
	var mu sync.Mutex
	deletes := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			mu.Lock()
			deletes++
			mu.Unlock()
			w.WriteHeader(http.StatusUnauthorized)
		case http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", "s1")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)
		}
	}))
	defer srv.Close()
	auth := &fakeAuthorizer{token: "good", next: []string{"x"}}
	s, err := (&StreamableHTTP{URL: srv.URL, Auth: auth, DisableListener: true}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	httpWrite(t, s.(*httpStream), httpRequest(t, 1, "initialize", httpInitParams))
	httpReadResponse(t, s.(*httpStream), 1)
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	auth.mu.Lock()
	defer auth.mu.Unlock()
	if deletes != 1 || len(auth.challenges) != 0 {
		t.Errorf("DELETE sent %d times, Challenge called %d times; want 1 and 0", deletes, len(auth.challenges))
	}
}

func TestLegacySSEUsesTheAuthorizer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: endpoint\ndata: /message\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	defer srv.CloseClientConnections()
	auth := &fakeAuthorizer{next: []string{"good"}}
	st, err := (&SSE{URL: srv.URL + "/sse", Auth: auth}).Connect(t.Context())
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	st.Close()
	if len(auth.challenges) != 1 {
		t.Errorf("challenges = %v, want one 401", auth.challenges)
	}
}

var _ jsonrpc.Stream = (*httpStream)(nil)
