package transport

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
)

// Configured headers never go in clear text to another machine unless the
// config or the caller says so for a lab network; loopback and https are
// fine, and the error names the header and the override but no value.
func TestFromServerRefusesHeadersInClearTextOutsideLoopback(t *testing.T) {
	const secret = "sk-live-0123456789"
	headers := map[string]string{"Authorization": "Bearer " + secret, "X-Api-Key": secret}
	for _, typ := range []string{"http", "sse", "auto"} {
		_, err := FromServer(&config.Server{Name: "lab", Type: typ, URL: "http://mcp.example.test:8080/mcp", Headers: headers}, ServerOptions{})
		if !errors.Is(err, ErrInsecureHTTP) {
			t.Fatalf("%s: %v, want ErrInsecureHTTP", typ, err)
		}
		msg := err.Error()
		for _, want := range []string{`"lab"`, `"Authorization"`, `"X-Api-Key"`, "mcp.example.test:8080", "allowInsecureHttp", "https"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q does not mention %s", typ, msg, want)
			}
		}
		if strings.Contains(msg, secret) {
			t.Fatalf("%s: the error shows the secret: %q", typ, msg)
		}
	}
	allowed := []struct {
		name string
		s    config.Server
		o    ServerOptions
	}{
		{"https", config.Server{URL: "https://mcp.example.test/mcp", Headers: headers}, ServerOptions{}},
		{"127.0.0.1", config.Server{URL: "http://127.0.0.1:9/mcp", Headers: headers}, ServerOptions{}},
		{"::1", config.Server{URL: "http://[::1]:9/mcp", Headers: headers}, ServerOptions{}},
		{"localhost", config.Server{URL: "http://localhost:9/mcp", Headers: headers}, ServerOptions{}},
		{"no headers", config.Server{URL: "http://mcp.example.test/mcp"}, ServerOptions{}},
		{"option", config.Server{URL: "http://mcp.example.test/mcp", Headers: headers}, ServerOptions{AllowInsecureHTTP: true}},
		{"oauth key", config.Server{URL: "http://mcp.example.test/mcp", Headers: headers, OAuth: json.RawMessage(`{"allowInsecureHttp":true}`)}, ServerOptions{}},
	}
	for _, c := range allowed {
		if _, err := FromServer(&c.s, c.o); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Credentials in the URL become an Authorization header: the same
	// rule, and the error shows neither them nor the URL's password.
	for _, raw := range []string{"http://user:" + secret + "@mcp.example.test/mcp", "http://" + secret + "@mcp.example.test/mcp"} {
		_, err := FromServer(&config.Server{Name: "lab", URL: raw}, ServerOptions{})
		if !errors.Is(err, ErrInsecureHTTP) || !strings.Contains(err.Error(), "user name and password") {
			t.Fatalf("%s: %v, want ErrInsecureHTTP naming the URL's credentials", raw, err)
		}
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("the error shows the secret: %q", err)
		}
		for _, ok := range []config.Server{{URL: strings.Replace(raw, "http:", "https:", 1)}, {URL: raw, OAuth: json.RawMessage(`{"allowInsecureHttp":true}`)}} {
			if _, err := FromServer(&ok, ServerOptions{}); err != nil {
				t.Errorf("%s: %v", ok.URL, err)
			}
		}
	}
	if _, err := FromServer(&config.Server{URL: "http://user:" + secret + "@127.0.0.1:9/mcp"}, ServerOptions{}); err != nil {
		t.Errorf("loopback with user info: %v", err)
	}
	// A key set to false, or an oauth block without it, lifts nothing.
	for _, raw := range []string{`{"allowInsecureHttp":false}`, `{"clientId":"x"}`, `not json`} {
		s := config.Server{URL: "http://mcp.example.test/mcp", Headers: headers, OAuth: json.RawMessage(raw)}
		if _, err := FromServer(&s, ServerOptions{}); !errors.Is(err, ErrInsecureHTTP) {
			t.Errorf("oauth %s: %v, want ErrInsecureHTTP", raw, err)
		}
	}
}
