package mcp

import (
	"bytes"
	"encoding/json"
	"sync/atomic"
)

// rawModernSession is the modern session as prepareRequest sees it: set
// once the era is chosen, read by any goroutine that calls the engine.
type rawModernSession = atomic.Pointer[modernSession]

// metaProtocolVersionKey is how the session's protocol version appears in
// a request's _meta; its presence marks params that already carry the
// session's _meta members.
var metaProtocolVersionKey = []byte(`"` + metaProtocolVersion + `"`)

// prepareRequest is the engine's PrepareRequest: in the modern era it adds
// the session's _meta to a request that does not carry it yet, so that a
// request sent straight through Conn().Call reaches a 2026-07-28 server
// as the typed methods' requests do. Those already carry it (see
// callModern), which a scan for the version key tells; the legacy era
// adds nothing. It reads the session from rawModern, not c.modern: a
// probe's request may pass here while the handshake sets c.modern.
func (c *Client) prepareRequest(method string, params json.RawMessage) (json.RawMessage, error) {
	if bytes.Contains(params, metaProtocolVersionKey) {
		return params, nil
	}
	m := c.rawModern.Load()
	if m == nil {
		return params, nil
	}
	return m.withMeta(params)
}
