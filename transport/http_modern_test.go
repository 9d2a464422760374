package transport

import (
	"net/http"
	"testing"
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
	h := statelessHeader(shared, "tools/call", []byte(`{"name":"echo","arguments":{}}`))
	if h.Get("Mcp-Method") != "tools/call" || h.Get("Mcp-Name") != "echo" || h.Get("Accept") != "x" {
		t.Errorf("header %v", h)
	}
	if len(shared) != 1 {
		t.Errorf("the shared header was changed: %v", shared)
	}
	h = statelessHeader(shared, "resources/read", []byte(`{"uri":"file:///x"}`))
	if h.Get("Mcp-Name") != "file:///x" {
		t.Errorf("resources/read header %v", h)
	}
	if h = statelessHeader(shared, "tools/list", nil); h.Get("Mcp-Name") != "" || h.Get("Mcp-Method") != "tools/list" {
		t.Errorf("tools/list header %v", h)
	}
	if !isStatelessVersion("2026-07-28") || isStatelessVersion("2025-11-25") {
		t.Error("isStatelessVersion draws the line in the wrong place")
	}
}
