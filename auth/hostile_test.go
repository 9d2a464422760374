package auth

// The hostile-server suite: each test plays a server or authorization
// server that lies, echoes or redirects to get at the user's credentials
// (all on loopback), and names the finding it guards against.

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

const storedToken = "at-STORED-0123456789abcdef"

// echoServer is an MCP endpoint that accepts any token and echoes the
// Authorization header it got back in its failures: a 500 page for
// tools/list, a JSON-RPC error message and data for tools/call.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got := r.Header.Get("Authorization")
		switch {
		case strings.Contains(string(body), `"tools/list"`):
			http.Error(rw, "internal error; request headers: Authorization: "+got, http.StatusInternalServerError)
		default:
			rw.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"bad token %s","data":{"seen":%q}}}`, got, got)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// storedAuthorizer is an Authorizer for serverURL whose store holds a
// valid token.
func storedAuthorizer(t *testing.T, serverURL string) *Authorizer {
	t.Helper()
	key, err := CanonicalResource(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	store := &MemoryStore{}
	store.Save(context.Background(), &Record{ServerURL: key, Issuer: "http://127.0.0.1:1", ClientID: "c",
		Token: &Token{AccessToken: storedToken, RefreshToken: "rt-STORED-0123456789", Expiry: time.Now().Add(time.Hour)}})
	a, err := New(serverURL, &Options{Store: store, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// sendOne writes one request on a Streamable HTTP stream with a as its
// Authorizer and returns the Write error or the error response's text.
func sendOne(t *testing.T, serverURL string, a *Authorizer, method string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := (&transport.StreamableHTTP{URL: serverURL, Auth: a, DisableListener: true}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	req, _ := jsonrpc.NewRequest(jsonrpc.Int64ID(1), method, nil)
	if err := st.Write(ctx, req); err != nil {
		return err.Error()
	}
	m, err := st.Read(ctx)
	if err != nil {
		return err.Error()
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.Error == nil {
		t.Fatalf("want an error response, got %#v", m)
	}
	return r.Error.Error() + " " + string(r.Error.Data)
}

func TestHostileTokenEchoedInHTTP500(t *testing.T) {
	srv := echoServer(t)
	msg := sendOne(t, srv.URL+"/mcp", storedAuthorizer(t, srv.URL+"/mcp"), "tools/list")
	if !strings.Contains(msg, "500") || !strings.Contains(msg, "[redacted]") {
		t.Fatalf("error %q: want the 500 with the echoed header scrubbed", msg)
	}
	if strings.Contains(msg, storedToken) || strings.Contains(msg, "STORED") {
		t.Fatalf("the stored token leaks into the error: %s", msg)
	}
}

func TestHostileTokenEchoedInJSONRPCError(t *testing.T) {
	srv := echoServer(t)
	msg := sendOne(t, srv.URL+"/mcp", storedAuthorizer(t, srv.URL+"/mcp"), "tools/call")
	if !strings.Contains(msg, "bad token") || !strings.Contains(msg, "[redacted]") {
		t.Fatalf("error %q: want the server's message with the token scrubbed", msg)
	}
	if strings.Contains(msg, "STORED") {
		t.Fatalf("the stored token leaks into the error response: %s", msg)
	}
}

// TestHostileBasicCredentialsEchoedByTokenEndpoint: a token endpoint that
// quotes the client_secret_basic header (base64 of id:secret) back in its
// error_description must not get it printed.
func TestHostileBasicCredentialsEchoedByTokenEndpoint(t *testing.T) {
	w := newWorld(t)
	w.authMethods = []string{"client_secret_basic"}
	w.tokenHook = func(_ url.Values, r *http.Request) (int, string, bool) {
		h := r.Header.Get("Authorization")
		return http.StatusBadRequest, fmt.Sprintf(`{"error":"invalid_client","error_description":"bad %s / %s"}`, h, strings.TrimPrefix(h, "Basic ")), true
	}
	a := newAuth(t, w, &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42"})
	err := call(t, w, a, "tools/list")
	if err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("call = %v, want the token endpoint's invalid_client", err)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("my-app:cs-SECRET-42"))
	if strings.Contains(err.Error(), basic) || strings.Contains(err.Error(), "cs-SECRET") {
		t.Fatalf("the Basic credentials leak: %v", err)
	}
}
