// Package sse reads and writes the Server-Sent Events wire format
// (text/event-stream) as MCP's HTTP transports use it.
//
// The parser follows the WHATWG event-stream rules (fields, comments, CR,
// LF and CRLF line ends, a leading byte-order mark, persistent last event
// id, digits-only retry) with two deliberate deviations that MCP needs:
//
//   - An event whose data is empty is still returned, as long as the block
//     carried any field (data, event, id or retry). Browsers drop such
//     events, but an MCP server's priming event is exactly that: an id and
//     a retry with empty data, and the client must see it to resume later.
//     A block holding only comments or unknown fields yields nothing.
//   - A final event that the stream ends without its closing blank line is
//     returned at EOF instead of being discarded, because MCP servers do
//     end their POST reply streams that way.
package sse

import "time"

// Event is one dispatched event.
type Event struct {
	// Type is the "event:" field; "" means the default type "message".
	Type string
	// Data is the event's data lines joined with "\n". It is empty (but the
	// event still returned) for priming events that carry only id/retry.
	Data []byte
	// ID is the "id:" value of this event, valid only if HasID. An empty
	// ID with HasID set resets the last event id.
	ID    string
	HasID bool
	// Retry is the reconnection delay the server asked for, valid only if
	// HasRetry.
	Retry    time.Duration
	HasRetry bool
}
