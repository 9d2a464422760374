package mcp

import (
	"fmt"
	"strings"
)

// wrappedError is an error of this package around a cause from this
// package or the engine, worded so that each prefix appears once: no
// "mcp: x: mcp: y", no "mcp: tools/call: jsonrpc: tools/call (id 3) …".
// errors.Is and errors.As see the cause.
type wrappedError struct {
	msg   string
	cause error
}

func (e *wrappedError) Error() string { return e.msg }
func (e *wrappedError) Unwrap() error { return e.cause }

// requestError wraps the engine's error for a request of method: the
// engine's own text already names the method and id, so it takes the
// package's prefix in place of its own; any other cause follows
// "mcp: method: ".
func requestError(method string, err error) error {
	text := err.Error()
	if rest, ok := strings.CutPrefix(text, "jsonrpc: "+method+" "); ok {
		return &wrappedError{msg: "mcp: " + method + " " + rest, cause: err}
	}
	if rest, ok := strings.CutPrefix(text, "jsonrpc: sending "+method+" "); ok {
		return &wrappedError{msg: "mcp: sending " + method + " " + withoutPostMethod(rest, method), cause: err}
	}
	return &wrappedError{msg: "mcp: " + method + ": " + strings.TrimPrefix(text, "mcp: "), cause: err}
}

// withoutPostMethod drops the method that the HTTP transport's errors
// name after the URL ("transport: POST URL (initialize): …"), which a
// caller of the transport alone needs, from text that already named it.
func withoutPostMethod(text, method string) string {
	const post = "transport: POST "
	i := strings.Index(text, post)
	if i < 0 {
		return text
	}
	urlEnd := i + len(post) + strings.IndexByte(text[i+len(post):], ' ')
	if urlEnd < i+len(post) {
		return text
	}
	if tail, ok := strings.CutPrefix(text[urlEnd:], " ("+method+")"); ok {
		return text[:urlEnd] + tail
	}
	return text
}

// wrapf is fmt.Errorf("mcp: "+format+": %w", args..., err) without
// repeating the cause's own "mcp: ".
func wrapf(err error, format string, args ...any) error {
	return &wrappedError{msg: "mcp: " + fmt.Sprintf(format, args...) + ": " + strings.TrimPrefix(err.Error(), "mcp: "), cause: err}
}
