package transport

import (
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/internal/paramheader"
)

func TestStatelessHeaderValue(t *testing.T) {
	for in, want := range map[string]string{
		"echo":                "echo",
		"file:///a b.txt":     "file:///a b.txt",
		" padded":             "=?base64?IHBhZGRlZA==?=",
		"naïve":               "=?base64?bmHDr3Zl?=",
		"=?base64?abc?=":      "=?base64?PT9iYXNlNjQ/YWJjPz0=?=",
		"line\nbreak":         "=?base64?bGluZQpicmVhaw==?=",
		"mcptest://static/hi": "mcptest://static/hi",
	} {
		if got := headerValue(in); got != want {
			t.Errorf("headerValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStatelessHeader(t *testing.T) {
	shared := http.Header{"Accept": {"x"}}
	h := statelessHeader(postHead{base: shared}, "tools/call", []byte(`{"name":"echo","arguments":{}}`), nil)
	if h.Get("Mcp-Method") != "tools/call" || h.Get("Mcp-Name") != "echo" || h.Get("Accept") != "x" {
		t.Errorf("header %v", h)
	}
	if len(shared) != 1 {
		t.Errorf("the shared header was changed: %v", shared)
	}
	h = statelessHeader(postHead{base: shared}, "resources/read", []byte(`{"uri":"file:///x"}`), nil)
	if h.Get("Mcp-Name") != "file:///x" {
		t.Errorf("resources/read header %v", h)
	}
	if h = statelessHeader(postHead{base: shared}, "tools/list", nil, nil); h.Get("Mcp-Name") != "" || h.Get("Mcp-Method") != "tools/list" {
		t.Errorf("tools/list header %v", h)
	}
	if !isStatelessVersion("2026-07-28") || isStatelessVersion("2025-11-25") {
		t.Error("isStatelessVersion draws the line in the wrong place")
	}
}

func TestStatelessHeaderMirrorsParams(t *testing.T) {
	shared := http.Header{"Accept": {"x"}}
	mirror := []paramheader.Header{{Name: "Region", Value: "us-west1"}, {Name: "NonAscii", Value: "Hello, 世界"}, {Name: "Bad Name", Value: "v"}, {Name: "Empty", Value: ""}, {Name: "Method", Value: "m"}}
	h := statelessHeader(postHead{base: shared}, "tools/call", []byte(`{"name":"t"}`), mirror)
	for k, want := range map[string]string{
		"Mcp-Param-Region":   "us-west1",
		"Mcp-Param-NonAscii": "=?base64?SGVsbG8sIOS4lueVjA==?=",
		"Mcp-Param-Method":   "m",
		"Mcp-Method":         "tools/call",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if v, ok := h["Mcp-Param-Empty"]; !ok || len(v) != 1 || v[0] != "" {
		t.Errorf("an empty value must still be sent, got %q (present %v)", v, ok)
	}
	for k := range h {
		if k == "Mcp-Param-Bad Name" || k == "Mcp-Param-Bad name" {
			t.Errorf("a name that is not a token went out: %q", k)
		}
	}
	if len(shared) != 1 {
		t.Errorf("the shared header was changed: %v", shared)
	}
}
