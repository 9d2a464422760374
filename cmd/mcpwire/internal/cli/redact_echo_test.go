package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A server that echoes the token it was sent (in a 500 body, in a
// JSON-RPC error, in a tool result, printed as is or with --json) gets it
// masked on mcpwire's output. The token comes from the store: a command
// run after "mcpwire login" loads it there, and nothing else registered it.
func TestTokenFromTheStoreEchoedByAServerIsMasked(t *testing.T) {
	t.Setenv(signin.DirEnv, filepath.Join(t.TempDir(), "tokens"))
	var echo atomic.Value // "", "500", "rpc" or "result"
	echo.Store("")
	p := &protected{tokens: map[string]bool{}}
	p.mcp = mcptest.NewDefault(nil).StreamableHTTPHandler(nil)
	p.as = httptest.NewServer(http.HandlerFunc(p.serveAS))
	p.rs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent := r.Header.Get("Authorization")
		p.mu.Lock()
		known := p.tokens[strings.TrimPrefix(sent, "Bearer ")]
		p.mu.Unlock()
		mode := echo.Load().(string)
		if r.URL.Path != "/mcp" || !known || mode == "" || r.Method != http.MethodPost {
			p.serveRS(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &req)
		reply := func(v map[string]any) {
			v["jsonrpc"], v["id"] = "2.0", req.ID
			writeJSONResponse(w, v)
		}
		switch {
		case mode == "500":
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "internal error; the request had Authorization: %s", sent)
		case mode == "rpc" && req.ID != nil:
			reply(map[string]any{"error": map[string]any{"code": -32603, "message": "rejected token " + strings.TrimPrefix(sent, "Bearer ")}})
		case mode == "result" && req.Method == "tools/call":
			reply(map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "you sent " + sent}}}})
		default:
			r.Body = io.NopCloser(bytes.NewReader(body))
			p.serveRS(w, r)
		}
	}))
	t.Cleanup(func() {
		p.rs.Close()
		p.as.Close()
		p.mcp.Close()
	})

	if r := runLogin(t, &userAtBrowser{}, "login", "--no-browser", p.url()); r.code != 0 {
		t.Fatalf("login: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	p.mu.Lock()
	var token string
	for tok := range p.tokens {
		token = tok
	}
	p.mu.Unlock()
	if token == "" {
		t.Fatal("no token was issued")
	}

	for _, c := range []struct {
		mode string
		args []string
		code int
	}{
		{"500", []string{"tools", p.url()}, ExitConnect},
		{"rpc", []string{"tools", p.url()}, ExitConnect},
		{"result", []string{"call", "echo", "--arg", "message=hi", p.url()}, ExitOK},
		{"result", []string{"call", "echo", "--arg", "message=hi", "--json", p.url()}, ExitOK},
	} {
		echo.Store(c.mode)
		r := runLogin(t, nil, c.args...)
		all := r.out + r.err
		if strings.Contains(all, token) || strings.Contains(all, "refresh-SECRET") {
			t.Errorf("%s %q: the token is on the output:\nstdout %q\nstderr %q", c.mode, c.args, r.out, r.err)
		}
		if !strings.Contains(all, "***") && !strings.Contains(all, "[redacted]") {
			t.Errorf("%s %q: the echo is not there, masked:\nstdout %q\nstderr %q", c.mode, c.args, r.out, r.err)
		}
		if r.code != c.code && !(c.code == ExitConnect && r.code != ExitOK) {
			t.Errorf("%s %q: exit %d, want %d\nstderr %q", c.mode, c.args, r.code, c.code, r.err)
		}
	}
}
