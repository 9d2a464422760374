package gateway

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
)

// An issuer the gateway cannot reach refuses every token, and the
// operator is told on the gateway's Warn, with the cause ("connection
// refused") that the hosts' 401 leaves out, once per fetch tried: a
// second token within the floor adds no line. Before, nothing was said
// on stderr, and the hosts saw only "the request failed".
func TestOAuthFailedKeyFetchIsReportedWithItsCause(t *testing.T) {
	// A loopback port that refuses: listen, note the address, close.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	issuer := "http://" + l.Addr().String()
	_ = l.Close()

	var mu sync.Mutex
	var warned []string
	g := newGateway(t, map[string]*server.Server{"up": server.NewServer(nil)}, &Options{Warn: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		warned = append(warned, err.Error())
	}})
	const aud = "mcpwire"
	web := httptest.NewServer(g.Handler(&HTTPOptions{OAuth: &OAuthOptions{Issuer: issuer, Audience: aud}}))
	t.Cleanup(web.Close)

	k := newECKey(t, "k")
	claims := map[string]any{"iss": issuer, "aud": aud, "sub": "alice", "exp": time.Now().Add(time.Minute).Unix()}
	for range 2 {
		resp := postInitialize(t, web.URL+"/mcp", "Bearer "+k.sign(t, claims))
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("token while the issuer is unreachable: %d, want 401", resp.StatusCode)
		}
		if !strings.Contains(string(body), "the request failed") || strings.Contains(string(body), "refused") {
			t.Errorf("the host's 401 says %q: want the short form, without the dial error", body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 1 {
		t.Fatalf("warnings %q: want one line for the one fetch tried", warned)
	}
	for _, want := range []string{"OAuth: fetching the key set of " + issuer, "connection refused", "every access token is refused", "30s"} {
		if !strings.Contains(warned[0], want) {
			t.Errorf("warning %q does not say %q", warned[0], want)
		}
	}
}
