package transport

import "fmt"

// NotReplayedError reports a request that met an expired session (HTTP
// 404 with Mcp-Session-Id) and was not sent again in the renewed session
// because it may have side effects: tools/call, unless
// StreamableHTTP.ReplayToolCalls allows it. The server may or may not have
// acted on it; whether to send it again is the caller's choice. It wraps
// ErrSessionExpired.
type NotReplayedError struct {
	// Method is the request's method.
	Method string
	// URL is the endpoint, with any password redacted.
	URL string
}

func (e *NotReplayedError) Error() string {
	return fmt.Sprintf("transport: %s to %s: %v; the session was renewed, but the request was not sent again since it may have side effects", e.Method, e.URL, ErrSessionExpired)
}

func (e *NotReplayedError) Unwrap() error { return ErrSessionExpired }
