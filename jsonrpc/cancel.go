package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
)

// sendCancel tells the peer, in the background and bounded by the
// CancelTimeout, that we gave up on request id. MCP forbids cancelling
// initialize, so nothing is sent for it.
func (c *Conn) sendCancel(id int64, method, reason string) {
	if method == "initialize" {
		return
	}
	n := cancelNotice(id, reason)
	c.update(func(s *inFlight) {
		if c.spawnLocked(s, func() { c.writeCancel(n, id, method) }) {
			s.cancelling++
		}
	})
}

// cancelNotice is the notifications/cancelled for request id.
func cancelNotice(id int64, reason string) *Notification {
	params := strconv.AppendInt([]byte(`{"requestId":`), id, 10)
	params = append(params, `,"reason":`...)
	params = jsonenc.AppendString(params, reason)
	params = append(params, '}')
	return &Notification{Method: MethodCancelled, Params: json.RawMessage(params)}
}

// reasonClosing is the reason given for the calls still pending at Close.
const reasonClosing = "the client closed the connection"

// cancelPendingLocked makes the notifications/cancelled for every call
// still pending when Close is called (initialize excepted), in id order,
// and counts them as being sent. It is called inside update.
func cancelPendingLocked(s *inFlight) []*Notification {
	var notes []*Notification
	for _, id := range s.calls.ids() {
		if s.calls.get(id).method != "initialize" {
			notes = append(notes, cancelNotice(id, reasonClosing))
		}
	}
	s.cancelling += len(notes)
	return notes
}

// writeCancels writes the notes of cancelPendingLocked in order, all
// within the CancelTimeout.
func (c *Conn) writeCancels(notes []*Notification) {
	ctx, cancel := context.WithTimeout(context.Background(), c.cancelTimeout)
	defer cancel()
	for _, n := range notes {
		err := c.stream.Write(ctx, n)
		c.update(func(s *inFlight) {
			s.cancelling--
			if err != nil {
				s.cancelsLost++
			}
		})
	}
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
