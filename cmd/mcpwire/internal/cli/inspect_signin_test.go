package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/oauthtest"
	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/mcptest"
)

// mcpwire inspect over an OAuth server with no stored token and no
// terminal: the page starts anyway and shows the server as needing a
// sign-in, for an ad-hoc URL and for a configured server named or not.
// The page's sign-in goes through the authorization server to the
// loopback listener, the token lands in the store "mcpwire login" uses,
// and the server connects (the ad-hoc client with the new Authorizer,
// the configured one through the manager) and lists its tools.
func TestInspectSignInFromThePage(t *testing.T) {
	for _, c := range []struct {
		name string
		args func(as *oauthtest.Server) (server string, args []string)
	}{
		{"ad-hoc URL", func(as *oauthtest.Server) (string, []string) {
			u, _ := url.Parse(as.URL)
			return u.Host, []string{as.URL}
		}},
		{"configured, named", func(as *oauthtest.Server) (string, []string) {
			return "secure", []string{"--config", oauthConfig(t, as), "secure"}
		}},
		{"configured, all", func(as *oauthtest.Server) (string, []string) {
			return "secure", []string{"--config", oauthConfig(t, as)}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := mcptest.NewDefault(nil).StreamableHTTPHandler(nil)
			as := oauthtest.Start(h)
			t.Cleanup(func() { as.Close(); h.Close() }) // after the inspector stops (cleanups run last first)
			store := t.TempDir()
			t.Setenv("MCPWIRE_AUTH_DIR", store)
			name, args := c.args(as)
			client, base := startInspect(t, args...)
			type server struct {
				Name, State string
				NeedsSignIn bool
				SignIn      *struct{ State, Error string }
			}
			servers := func() server {
				var out []server
				getJSON(t, client, base+"/api/servers", &out)
				for _, s := range out {
					if s.Name == name {
						return s
					}
				}
				t.Fatalf("no server %q in %+v", name, out)
				return server{}
			}
			resp, err := client.Get(base + "/api/events")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			events := sse.NewReader(bufio.NewReader(resp.Body))
			// A configured server may still be on its first attempt.
			for s := servers(); !s.NeedsSignIn; s = servers() {
				if s.State == "connected" {
					t.Fatalf("connected without a token: %+v", s)
				}
				if _, err := events.Next(); err != nil {
					t.Fatal(err)
				}
			}

			req, _ := http.NewRequest(http.MethodPost, base+"/api/signin", strings.NewReader(`{"server":`+jsonQuote(name)+`}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", originOf(base))
			sresp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var started struct{ URL, Site, Error string }
			json.NewDecoder(sresp.Body).Decode(&started)
			sresp.Body.Close()
			if sresp.StatusCode != http.StatusOK || started.Site != as.Issuer {
				t.Fatalf("sign in: %s %+v", sresp.Status, started)
			}
			back, err := http.Get(started.URL) // the browser's tab
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(back.Body)
			back.Body.Close()
			if !strings.Contains(string(page), "Authorization complete") {
				t.Fatalf("the redirect's page: %s", page)
			}
			for s := servers(); s.State != "connected"; s = servers() {
				if s.SignIn != nil && s.SignIn.State == "failed" {
					t.Fatalf("sign-in failed: %s", s.SignIn.Error)
				}
				if _, err := events.Next(); err != nil {
					t.Fatal(err)
				}
			}
			var tools []struct{ Name string }
			getJSON(t, client, base+"/api/tools?server="+url.QueryEscape(name), &tools)
			if len(tools) == 0 {
				t.Error("no tools after signing in")
			}
			files, _ := filepath.Glob(filepath.Join(store, "*"))
			if len(files) == 0 {
				t.Error("no token stored where mcpwire login keeps them")
			}
		})
	}
}

// oauthConfig is a config file with one server, "secure", at as.
func oauthConfig(t *testing.T, as *oauthtest.Server) string {
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"secure": map[string]any{"type": "http", "url": as.URL}}})
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
