package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// sendCancel tells the peer, in the background and bounded by the
// CancelTimeout, that we gave up on request id. MCP forbids cancelling
// initialize, so nothing is sent for it.
func (c *Conn) sendCancel(id int64, method, reason string) {
	if method == "initialize" {
		return
	}
	params := strconv.AppendInt([]byte(`{"requestId":`), id, 10)
	params = append(params, `,"reason":`...)
	params = appendJSONString(params, reason)
	params = append(params, '}')
	n := &Notification{Method: MethodCancelled, Params: json.RawMessage(params)}
	c.update(func(s *inFlight) {
		c.spawnLocked(s, func() {
			ctx, cancel := context.WithTimeout(c.lifeCtx(), c.cancelTimeout)
			defer cancel()
			if err := c.stream.Write(ctx, n); err != nil && c.Err() == nil {
				c.report(fmt.Errorf("jsonrpc: could not send %s for %s (id %d): %w", MethodCancelled, method, id, err))
			}
		})
	})
}
