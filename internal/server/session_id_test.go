package server

import (
	"encoding/hex"
	"strings"
	"testing"
)

// unguessable reports whether id carries at least 128 random bits in hex,
// as the spec asks of a session id ("globally unique and cryptographically
// secure"): a sequence ("session-1", "session-2") lets anyone who reaches
// the endpoint use, listen on or end another host's session.
func unguessable(id string) bool {
	b, err := hex.DecodeString(id)
	return err == nil && len(b) >= 16
}

// Before, the Mcp-Session-Id of a handler without session keys, and the
// legacy transport's sessionId, were "session-N" in order of creation.
func TestSessionIDsAreUnguessable(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), nil)
	seen := map[string]bool{}
	for range 2 {
		c := newHTTPClient(t, srv)
		c.initialize(LatestProtocolVersion)
		if !unguessable(c.session) || seen[c.session] {
			t.Fatalf("Mcp-Session-Id %q: want 128 random bits in hex, new each time", c.session)
		}
		seen[c.session] = true
	}

	endpoint := openLegacy(t, srv)
	_, id, _ := strings.Cut(endpoint, "sessionId=")
	if !unguessable(id) {
		t.Errorf("legacy endpoint %q: want a sessionId of 128 random bits in hex", endpoint)
	}
}
