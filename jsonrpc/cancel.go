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
		if c.spawnLocked(s, func() { c.writeCancel(n, id, method) }) {
			s.cancelling++
		}
	})
}

// writeCancel writes one notifications/cancelled. Its bound is its own,
// not the connection's life: Close lets it finish (see Close).
func (c *Conn) writeCancel(n *Notification, id int64, method string) {
	ctx, cancel := context.WithTimeout(context.Background(), c.cancelTimeout)
	err := c.stream.Write(ctx, n)
	cancel()
	open := false
	c.update(func(s *inFlight) {
		s.cancelling--
		open = s.ended == nil
		if err != nil && !open {
			s.cancelsLost++
		}
	})
	if err != nil && open {
		c.report(fmt.Errorf("jsonrpc: could not send %s for %s (id %d): %w", MethodCancelled, method, id, err))
	}
}
