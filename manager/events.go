package manager

import (
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// EventKind says what happened to a server.
type EventKind int

// The kinds of Event. Notification and Warning come from what a server
// sends and may come in floods; the others are state changes, which come
// at a pace the manager sets (backoff, debouncing) and are never dropped
// (see Subscribe).
const (
	// Connecting: an attempt to connect started (Attempt counts them).
	Connecting EventKind = iota + 1
	// Connected: the handshake and the first listings succeeded (Tools is
	// the tool count).
	Connected
	// Failed: a connection attempt failed (Err says why).
	Failed
	// Reconnecting: the connection ended or an attempt failed, and the
	// next attempt (Attempt) follows after Delay. Err says why.
	Reconnecting
	// ToolsChanged: the server's tools as Tools() shows them differ from
	// what stood for them before: the cached list, the last connection's,
	// or the list before a tools/list_changed. A first connect without a
	// cache, or one that finds the same tools, is only Connected. Tools is
	// the new count.
	ToolsChanged
	// PromptsChanged and ResourcesChanged: those lists were listed again
	// (after a list_changed, or once their ttlMs passed) and differ from
	// before.
	PromptsChanged
	ResourcesChanged
	// Notification: the server sent a notification (list_changed,
	// logging, progress, anything else; not the acknowledgement of the
	// client's own subscriptions/listen, which is bookkeeping); see
	// Notification.
	Notification
	// BreakerOpen: the server failed BreakerCrashes times in a row, so
	// automatic restarts stopped. Err is a *BreakerError.
	BreakerOpen
	// Closed: the manager stopped the server (Close).
	Closed
	// Warning: something went wrong that stops nothing: a corrupt cache
	// file, a cache that cannot be written, a bad frame from the server,
	// a list refresh that failed. Err says what.
	Warning
	// Dropped: notifications were dropped before they reached the
	// subscriber. With Server "", the subscriber's own queue was full, so
	// Dropped of its oldest Notification and Warning events were dropped;
	// it is delivered next, before the events still queued. With a
	// server's name, that server's connection dropped Dropped
	// notifications because the callbacks taking them fell behind (see
	// Options.Client); reports of one server still queued are added up.
	Dropped
)

var eventKindNames = [...]string{
	Connecting:       "connecting",
	Connected:        "connected",
	Failed:           "failed",
	Reconnecting:     "reconnecting",
	ToolsChanged:     "tools-changed",
	PromptsChanged:   "prompts-changed",
	ResourcesChanged: "resources-changed",
	Notification:     "notification",
	BreakerOpen:      "breaker-open",
	Closed:           "closed",
	Warning:          "warning",
	Dropped:          "dropped",
}

func (k EventKind) String() string {
	if k > 0 && int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// droppable reports whether events of kind k may be dropped from a full
// queue: the ones a server can send at any rate.
func (k EventKind) droppable() bool {
	return k == Notification || k == Warning
}

// eventOverhead is what an event counts for against
// Options.EventQueueBytes beyond its notification's method and params.
const eventOverhead = 256

// size is what e counts for against Options.EventQueueBytes.
func (e *Event) size() int {
	n := eventOverhead
	if e.Notification != nil {
		n += len(e.Notification.Method) + len(e.Notification.Params)
	}
	return n
}

// Event is one thing that happened to one server.
type Event struct {
	Server string
	Kind   EventKind
	Time   time.Time
	// Err is why, for Failed, Reconnecting, BreakerOpen and Warning.
	Err error
	// Attempt numbers connection attempts since the server was started
	// (Connecting, Reconnecting).
	Attempt int
	// Delay is the wait before the next attempt (Reconnecting).
	Delay time.Duration
	// Tools is the tool count after Connected or ToolsChanged.
	Tools int
	// Notification is the server's message (Notification).
	Notification *jsonrpc.Notification
	// Dropped counts the events dropped (Dropped).
	Dropped int
}

func (e Event) String() string {
	s := fmt.Sprintf("%s: %s", e.Server, e.Kind)
	switch e.Kind {
	case Connecting:
		s += fmt.Sprintf(" (attempt %d)", e.Attempt)
	case Connected, ToolsChanged:
		s += fmt.Sprintf(" (%d tools)", e.Tools)
	case Reconnecting:
		s += fmt.Sprintf(" (attempt %d in %s)", e.Attempt, e.Delay.Round(time.Millisecond))
	case Notification:
		if e.Notification != nil {
			s += " " + e.Notification.Method
		}
	case Dropped:
		if e.Server == "" {
			s += fmt.Sprintf(" (%d events)", e.Dropped)
		} else {
			s += fmt.Sprintf(" (%d notifications)", e.Dropped)
		}
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}
