package mcp

import (
	"context"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// classifyNotification says which of the server's notifications a full
// delivery queue may give up (see ClientOptions.NotificationQueue): the
// ones a server sends in floods and whose loss a later one makes good
// (logs, progress, resource updates: the next read of the resource is
// current anyway); a list_changed equal to one still queued folds into it.
func classifyNotification(method string) jsonrpc.NotificationClass {
	switch method {
	case NotificationMessage, NotificationProgress, NotificationResourceUpdated, NotificationCancelled:
		return jsonrpc.Droppable
	case NotificationToolsListChanged, NotificationPromptsListChanged, NotificationResourcesListChanged:
		return jsonrpc.Coalesced
	}
	return jsonrpc.Kept
}

// droppedCallback adapts OnNotificationsDropped to the engine's
// OnDropped; nil stays nil.
func (c *Client) droppedCallback(fn func(context.Context, int)) func(int) {
	if fn == nil {
		return nil
	}
	return func(k int) { fn(sessionCtx{c}, k) }
}

// QueueStats returns the counters of the queue between the connection
// and the notification callbacks: what waits now, the most that ever
// waited, and how many notifications were dropped or folded into
// another (see ClientOptions.NotificationQueue).
func (c *Client) QueueStats() jsonrpc.QueueStats { return c.conn.QueueStats() }
