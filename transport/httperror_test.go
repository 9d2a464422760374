package transport

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pw@h.example:8443/mcp?key=s3&x=1#frag": "https://h.example:8443/mcp?key=REDACTED&x=REDACTED",
		"http://h/sse":                     "http://h/sse",
		"http://tok@h/p?":                  "http://h/p",
		"http://h/p?justakey":              "http://h/p?justakey=REDACTED",
		"http://u:p@h/%zz?key=secret":      "http://h/%zz?REDACTED", // unparseable: cut by hand
		"not a url\x7f?secret=1":           "not a url\x7f?REDACTED",
		"http://u:p@[::1]:80/x?token=abcd": "http://[::1]:80/x?token=REDACTED",
		"u:pw@h/x?token=abcd":              "h/x?token=REDACTED", // no scheme: opaque
		"tok@h/x":                          "h/x",                // no scheme: a path
		"u:p\x7f@h/x?token=abcd":           "h/x?REDACTED",       // no scheme, unparseable
		"mailto:/x@y":                      "mailto:/x@y",        // an @ after the first segment stays
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHTTPErrorText(t *testing.T) {
	u, _ := url.Parse("http://h/mcp")
	e := &HTTPError{StatusCode: 404, Method: "POST", URL: redactParsedURL(u), Body: strings.Repeat("b", 500)}
	msg := e.Error()
	if !strings.Contains(msg, "POST http://h/mcp: HTTP 404 Not Found") || len(msg) > 300 {
		t.Errorf("Error() = %q", msg)
	}
	wrapped := fmt.Errorf("outer: %w", e)
	if !IsHTTPStatus(wrapped, 400, 404) || IsHTTPStatus(wrapped, 401) || IsHTTPStatus(errors.New("x"), 404) {
		t.Error("IsHTTPStatus misreports")
	}
}
