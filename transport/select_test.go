package transport

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestFromConfig(t *testing.T) {
	hdr := map[string]string{"authorization": "Bearer s3cret"}
	wantHdr := http.Header{"Authorization": {"Bearer s3cret"}}
	tests := []struct {
		name string
		c    Config
		want Transport
	}{
		{"no type with command is stdio",
			Config{Command: "srv", Args: []string{"-v"}, Env: map[string]string{"K": "v"}, Dir: "/tmp"},
			&Command{Command: "srv", Args: []string{"-v"}, Env: map[string]string{"K": "v"}, Dir: "/tmp"}},
		{"stdio", Config{Type: "stdio", Command: "srv"}, &Command{Command: "srv"}},
		{"STDIO case ignored", Config{Type: " STDIO ", Command: "srv"}, &Command{Command: "srv"}},
		{"http", Config{Type: "http", URL: "https://h/mcp", Headers: hdr}, &StreamableHTTP{URL: "https://h/mcp", Headers: wantHdr}},
		{"streamable-http", Config{Type: "streamable-http", URL: "http://h/mcp"}, &StreamableHTTP{URL: "http://h/mcp"}},
		{"streamableHttp", Config{Type: "streamableHttp", URL: "http://h/mcp"}, &StreamableHTTP{URL: "http://h/mcp"}},
		{"streamable_http", Config{Type: "streamable_http", URL: "http://h/mcp"}, &StreamableHTTP{URL: "http://h/mcp"}},
		{"sse", Config{Type: "sse", URL: "http://h/sse", Headers: hdr}, &SSE{URL: "http://h/sse", Headers: wantHdr}},
		{"url without type is auto", Config{URL: "http://h/mcp", Headers: hdr}, &Auto{URL: "http://h/mcp", Headers: wantHdr}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromConfig(tc.c)
			if err != nil {
				t.Fatalf("FromConfig: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("FromConfig = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestFromConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		want string
	}{
		{"empty", Config{}, "neither command"},
		{"unknown type", Config{Type: "websocket", URL: "ws://h"}, `unknown type "websocket"`},
		{"stdio without command", Config{Type: "stdio"}, `"stdio" needs a command`},
		{"stdio with url", Config{Type: "stdio", Command: "x", URL: "http://h"}, "does not take a url"},
		{"stdio with headers", Config{Command: "x", Type: "stdio", Headers: map[string]string{"A": "b"}}, "does not take headers"},
		{"bad env name", Config{Command: "x", Env: map[string]string{"A=B": "v"}}, `env name "A=B"`},
		{"ambiguous", Config{Command: "x", URL: "http://h"}, "both command and url"},
		{"http without url", Config{Type: "http"}, `"http" (streamable HTTP) needs a url`},
		{"sse without url", Config{Type: "sse"}, `"sse" (legacy SSE) needs a url`},
		{"http with command", Config{Type: "http", URL: "http://h", Command: "x"}, "not command"},
		{"http with env", Config{Type: "http", URL: "http://h", Env: map[string]string{"A": "secretvalue"}}, "does not take env"},
		{"bad scheme", Config{Type: "http", URL: "ftp://h/x"}, "scheme must be http or https"},
		{"no host", Config{URL: "http:///x"}, "has no host"},
		{"header value with newline", Config{URL: "http://h", Headers: map[string]string{"X-Key": "secretvalue\nX: y"}}, `header "X-Key"`},
		{"bad header name", Config{URL: "http://h", Headers: map[string]string{"Bad Name": "secretvalue"}}, `header name "Bad Name"`},
		{"password redacted", Config{Type: "sse", URL: "gopher://u:secretvalue@h/x"}, "gopher://h/x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := FromConfig(tc.c)
			if err == nil {
				t.Fatalf("FromConfig = %#v, want an error", tr)
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
