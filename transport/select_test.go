package transport

import (
	"bytes"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
)

func TestFromServer(t *testing.T) {
	hdr := map[string]string{"authorization": "Bearer s3cret"}
	wantHdr := http.Header{"Authorization": {"Bearer s3cret"}}
	tests := []struct {
		name string
		c    config.Server
		want Transport
	}{
		{"no type with command is stdio",
			config.Server{Command: "srv", Args: []string{"-v"}, Env: map[string]string{"K": "v"}, Cwd: "/tmp"},
			&Command{Command: "srv", Args: []string{"-v"}, Env: map[string]string{"K": "v"}, Dir: "/tmp"}},
		{"stdio", config.Server{Type: "stdio", Command: "srv"}, &Command{Command: "srv"}},
		{"STDIO case ignored", config.Server{Type: " STDIO ", Command: "srv"}, &Command{Command: "srv"}},
		{"http", config.Server{Type: "http", URL: "https://h/mcp", Headers: hdr}, &StreamableHTTP{URL: "https://h/mcp", Headers: wantHdr}},
		{"streamable-http", config.Server{Type: "streamable-http", URL: "http://h/mcp"}, &StreamableHTTP{URL: "http://h/mcp"}},
		{"streamableHttp", config.Server{Type: "streamableHttp", URL: "http://h/mcp"}, &StreamableHTTP{URL: "http://h/mcp"}},
		{"streamable_http", config.Server{Type: "streamable_http", URL: "http://h/mcp"}, &StreamableHTTP{URL: "http://h/mcp"}},
		{"sse", config.Server{Type: "sse", URL: "https://h/sse", Headers: hdr}, &SSE{URL: "https://h/sse", Headers: wantHdr}},
		{"url without type is auto", config.Server{URL: "https://h/mcp", Headers: hdr}, &Auto{URL: "https://h/mcp", Headers: wantHdr}},
		{"maxMessageSize on stdio", config.Server{Command: "srv", MaxMessageSize: 1 << 20}, &Command{Command: "srv", MaxMessageSize: 1 << 20}},
		{"no limit on stdio is its default", config.Server{Command: "srv", MaxMessageSize: -1}, &Command{Command: "srv"}},
		{"maxMessageSize over http", config.Server{Type: "http", URL: "http://h/mcp", MaxMessageSize: 256 << 20},
			&StreamableHTTP{URL: "http://h/mcp", MaxBodySize: 256 << 20, MaxEventSize: 256 << 20}},
		{"no limit over sse", config.Server{Type: "sse", URL: "http://h/sse", MaxMessageSize: -1}, &SSE{URL: "http://h/sse", MaxEventSize: -1}},
		{"maxMessageSize auto", config.Server{URL: "http://h/mcp", MaxMessageSize: 1 << 30},
			&Auto{URL: "http://h/mcp", MaxBodySize: 1 << 30, MaxEventSize: 1 << 30}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromServer(&tc.c, ServerOptions{})
			if err != nil {
				t.Fatalf("FromServer: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("FromServer = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestFromServerErrors(t *testing.T) {
	tests := []struct {
		name string
		c    config.Server
		want string
	}{
		{"empty", config.Server{}, "neither command"},
		{"unknown type", config.Server{Name: "w", Type: "websocket", URL: "ws://h"}, `server "w": config: unknown type "websocket"`},
		{"stdio without command", config.Server{Type: "stdio"}, `"stdio" needs a command`},
		{"stdio with url", config.Server{Type: "stdio", Command: "x", URL: "http://h"}, "does not take a url"},
		{"stdio with headers", config.Server{Command: "x", Type: "stdio", Headers: map[string]string{"A": "b"}}, "does not take headers"},
		{"bad env name", config.Server{Command: "x", Env: map[string]string{"A=B": "v"}}, `env name "A=B"`},
		{"ambiguous", config.Server{Command: "x", URL: "http://h"}, "both command and url"},
		{"http without url", config.Server{Type: "http"}, `"http" (Streamable HTTP) needs a url`},
		{"sse without url", config.Server{Type: "sse"}, `"sse" (legacy SSE) needs a url`},
		{"http with command", config.Server{Type: "http", URL: "http://h", Command: "x"}, "not command"},
		{"http with env", config.Server{Type: "http", URL: "http://h", Env: map[string]string{"A": "secretvalue"}}, "does not take env"},
		{"bad scheme", config.Server{Type: "http", URL: "ftp://h/x"}, "scheme must be http or https"},
		{"no host", config.Server{URL: "http:///x"}, "has no host"},
		{"header value with newline", config.Server{URL: "http://h", Headers: map[string]string{"X-Key": "secretvalue\nX: y"}}, `header "X-Key"`},
		{"bad header name", config.Server{URL: "http://h", Headers: map[string]string{"Bad Name": "secretvalue"}}, `header name "Bad Name"`},
		{"password redacted", config.Server{Type: "sse", URL: "gopher://u:secretvalue@h/x"}, "gopher://h/x"},
		// Credentials typed without the scheme: url.Parse takes "u" for
		// the scheme and the rest for an opaque part or a path.
		{"password without scheme", config.Server{URL: "u:secretvalue@h.example/mcp"}, "URL h.example/mcp: scheme must be"},
		{"token without scheme", config.Server{Type: "http", URL: "secretvalue@h.example/mcp?k=v"}, "URL h.example/mcp?k=REDACTED: scheme must be"},
		{"unparseable without scheme", config.Server{Type: "sse", URL: "u:secretvalue\x7f@h.example/mcp"}, "URL h.example/mcp is not a valid URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := FromServer(&tc.c, ServerOptions{})
			if err == nil {
				t.Fatalf("FromServer = %#v, want an error", tr)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secretvalue") {
				t.Errorf("error leaks a secret: %q", err)
			}
		})
	}
}

func TestFromServerSpellings(t *testing.T) {
	for _, typ := range []string{"http", "HTTP", "streamable-http", "streamableHttp", "streamable_http", "streamable"} {
		tr, err := FromServer(&config.Server{Type: typ, URL: "http://h/mcp"}, ServerOptions{})
		if _, ok := tr.(*StreamableHTTP); err != nil || !ok {
			t.Errorf("type %q: %#v, %v; want a *StreamableHTTP", typ, tr, err)
		}
	}
	if tr, err := FromServer(&config.Server{Type: "auto", URL: "http://h/mcp"}, ServerOptions{}); err != nil {
		t.Errorf("auto: %v", err)
	} else if _, ok := tr.(*Auto); !ok {
		t.Errorf("auto: %#v", tr)
	}
}

func TestFromServerStdioOptions(t *testing.T) {
	var stderr bytes.Buffer
	tr, err := FromServer(&config.Server{Type: config.TypeStdio, Command: "srv", InheritEnv: true}, ServerOptions{Dir: "/project", Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if c := tr.(*Command); c.Dir != "/project" || c.Stderr != &stderr || !c.InheritEnv {
		t.Errorf("options not applied: %#v", c)
	}
	tr, _ = FromServer(&config.Server{Command: "srv", Cwd: "/elsewhere"}, ServerOptions{Dir: "/project"})
	if c := tr.(*Command); c.Dir != "/elsewhere" {
		t.Errorf("the config's cwd must win over ServerOptions.Dir: %q", c.Dir)
	}
}
