package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// httpServer serves the example server over Streamable HTTP (URL) and the
// legacy HTTP+SSE transport (SSEURL) on loopback.
func httpServer(t *testing.T, faults ...mcptest.Fault) *mcptest.HTTPServer {
	t.Helper()
	return mcptest.NewHTTPServer(t, mcptest.NewDefault(&mcptest.Options{Faults: faults}), nil)
}

// The same server gives the same table over every transport.
func TestHTTPToolsEveryTransport(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join("testdata", "tools.golden"))
	if err != nil {
		t.Fatal(err)
	}
	hs := httpServer(t)
	for _, c := range []struct{ transport, url string }{
		{"auto", hs.URL},
		{"http", hs.URL},
		{"sse", hs.SSEURL},
	} {
		r := run(t, "tools", "--transport", c.transport, c.url).wantCode(t, 0)
		if r.out != string(want) {
			t.Errorf("--transport %s: stdout differs from testdata/tools.golden:\n%s", c.transport, r.out)
		}
	}
}

func TestHTTPAutoFallsBackToLegacySSE(t *testing.T) {
	t.Parallel()
	hs := httpServer(t)
	r := run(t, "call", "echo", "--arg", "message=over legacy SSE", "--verbose", hs.SSEURL).wantCode(t, 0)
	if r.out != "over legacy SSE\n" {
		t.Errorf("stdout = %q", r.out)
	}
	if !strings.Contains(r.err, "trying the legacy HTTP+SSE transport") {
		t.Errorf("--verbose did not announce the fallback: %q", r.err)
	}
}

func TestHTTPCallProgressAndStructuredContent(t *testing.T) {
	t.Parallel()
	hs := httpServer(t)
	r := run(t, "call", "slow", "--arg", "steps=2", "--arg", "delay_ms=1", hs.URL).wantCode(t, 0)
	if r.out != "done after 2 steps\n" || !strings.Contains(r.err, "progress slow: 2/2 (100%)") {
		t.Errorf("stdout %q, stderr %q", r.out, r.err)
	}
	r = run(t, "call", "add", "--arg", "a=2", "--arg", "b=3", "--structured", hs.URL).wantCode(t, 0)
	golden(t, "call-add.golden", r.out)
}

func TestHTTPExitCodes(t *testing.T) {
	t.Parallel()
	hs := httpServer(t, mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: "echo"})
	run(t, "call", "fail", hs.URL).wantCode(t, ExitToolError)
	run(t, "call", "no-such-tool", hs.URL).wantCode(t, ExitUsage)
	run(t, "call", "bad-output", "--transport", "sse", hs.SSEURL).wantCode(t, ExitProtocol)
	r := run(t, "call", "echo", "--arg", "message=x", "--tool-timeout", "300ms", hs.URL).wantCode(t, ExitTimeout)
	if !strings.Contains(r.err, "raise --tool-timeout") {
		t.Errorf("stderr = %q", r.err)
	}
	r = run(t, "tools", hs.URL[:strings.LastIndex(hs.URL, "/")]+"/nowhere", "--transport", "http").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "404") {
		t.Errorf("stderr = %q", r.err)
	}
}

// requireBearer lets only requests with the right token through to next.
func requireBearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcptest"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func TestHTTPBearerToken(t *testing.T) {
	const token = "tok-5e6f7a8b9c0d"
	t.Setenv("MCPWIRE_TEST_GOOD_TOKEN", token)
	t.Setenv("MCPWIRE_TEST_BAD_TOKEN", "tok-wrong-0000000")
	h := mcptest.NewDefault(nil).StreamableHTTPHandler(nil)
	hs := httptest.NewServer(requireBearer(token, h))
	defer hs.Close()
	defer h.Close()

	r := run(t, "ping", "--bearer-token-env", "MCPWIRE_TEST_GOOD_TOKEN", hs.URL).wantCode(t, 0)
	if !strings.HasPrefix(r.out, "ok: mcptest") {
		t.Errorf("stdout = %q", r.out)
	}
	r = run(t, "ping", "--bearer-token-env", "MCPWIRE_TEST_BAD_TOKEN", "--transport", "http", hs.URL).wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "401") || strings.Contains(r.out+r.err, "tok-") {
		t.Errorf("stderr = %q", r.err)
	}
	// A header works as well as the variable.
	run(t, "ping", "--header", "Authorization: Bearer "+token, hs.URL).wantCode(t, 0)
}
