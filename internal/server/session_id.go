package server

import (
	"crypto/rand"
	"encoding/hex"
)

// newSessionID is a session id for a transport that hands it to the
// client (Mcp-Session-Id, the legacy transport's sessionId): 128 random
// bits in hex. Whoever knows a session's id can post into the session,
// listen on its stream and end it, so it must not be guessable, as the
// spec asks ("globally unique and cryptographically secure").
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand.Read's contract)
	return hex.EncodeToString(b[:])
}
