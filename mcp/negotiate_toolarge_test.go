package mcp

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// A server that refuses a request for its size (HTTP 413) has said
// nothing about protocol versions: the client reports the size, neither
// falls back to initialize nor calls it a refused revision.
func TestRequestTooLargeIsNotAVersionRefusal(t *testing.T) {
	const limit = 4096
	srv := mcptest.NewDefault(nil)
	inner := srv.StreamableHTTPHandler(nil)
	t.Cleanup(inner.Close)
	var initializes atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, limit+1))
		if strings.Contains(string(body), `"method":"initialize"`) {
			initializes.Add(1)
		}
		if len(body) > limit {
			http.Error(w, "payload too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	big := Implementation{Name: "client-" + strings.Repeat("x", 2*limit), Version: "1"}

	for _, pin := range []string{"", ModernProtocolVersion, LatestLegacyProtocolVersion} {
		c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: ts.URL}, &ClientOptions{ClientInfo: big, ProtocolVersion: pin})
		if err == nil {
			c.Close()
			t.Fatalf("pin %q: connected past a 413", pin)
		}
		var pv *ProtocolVersionError
		if errors.As(err, &pv) || !errors.Is(err, transport.ErrRequestTooLarge) || !strings.Contains(err.Error(), "request too large (HTTP 413") {
			t.Errorf("pin %q: err = %v; want a request too large error, not a version refusal", pin, err)
		}
	}
	// One initialize: the pinned legacy revision's own.
	if n := initializes.Load(); n != 1 {
		t.Errorf("%d initialize requests, want 1 (the pinned one): the probe fell back after its 413", n)
	}
	// A request of an ordinary size goes through the same server.
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}
