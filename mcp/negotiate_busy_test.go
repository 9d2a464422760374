package mcp

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/transport"
)

// A server too busy for the request (HTTP 503 or 429, a JSON-RPC error in
// the body, as mcpwire serve answers past its bound on stateless
// requests) has said nothing about protocol versions: the client reports
// it, neither falls back to initialize (which would leave it in the older
// era for the rest of the run) nor calls it a refused revision.
func TestBusyServerIsNotAVersionRefusal(t *testing.T) {
	for _, status := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests} {
		var initializes atomic.Int32
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"method":"initialize"`) {
				initializes.Add(1)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"server busy: 1 stateless request already in flight"}}`)
		}))
		for _, pin := range []string{"", ModernProtocolVersion} {
			c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: ts.URL}, &ClientOptions{ProtocolVersion: pin})
			if err == nil {
				c.Close()
				t.Fatalf("%d, pin %q: connected to a server that answers only %d", status, pin, status)
			}
			var pv *ProtocolVersionError
			var he *transport.HTTPError
			if errors.As(err, &pv) || !errors.As(err, &he) || he.StatusCode != status || !strings.Contains(err.Error(), "server busy") {
				t.Errorf("%d, pin %q: err = %v; want the HTTP %d with the server's busy error, not a version refusal", status, pin, err, status)
			}
		}
		ts.Close()
		if n := initializes.Load(); n != 0 {
			t.Errorf("%d: %d initialize requests, want none: the probe fell back to the older era", status, n)
		}
	}
}
