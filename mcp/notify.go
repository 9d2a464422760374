package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Notification is a JSON-RPC notification as received, for
// ClientOptions.OnNotification (extensions and methods this package does
// not type).
type Notification = jsonrpc.Notification

// ProgressNotification is the params of notifications/progress.
type ProgressNotification struct {
	// ProgressToken is the token as sent: a JSON string or integer.
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	// Total is nil when the server did not say.
	Total   *float64 `json:"total,omitempty"`
	Message string   `json:"message,omitempty"`
}

// notificationHandlers are the typed callbacks of ClientOptions a session
// keeps.
type notificationHandlers struct {
	progress             func(context.Context, ProgressNotification)
	logMessage           func(context.Context, LoggingMessage)
	resourceUpdated      func(context.Context, ResourceUpdated)
	resourcesListChanged func(context.Context)
	toolsListChanged     func(context.Context)
	promptsListChanged   func(context.Context)
	elicitationComplete  func(context.Context, ElicitationComplete)
	taskStatus           func(context.Context, Task)
	raw                  func(context.Context, *Notification)
}

func notificationHandlersOf(o *ClientOptions) notificationHandlers {
	return notificationHandlers{
		progress:             o.OnProgress,
		logMessage:           o.OnLogMessage,
		resourceUpdated:      o.OnResourceUpdated,
		resourcesListChanged: o.OnResourcesListChanged,
		toolsListChanged:     o.OnToolsListChanged,
		promptsListChanged:   o.OnPromptsListChanged,
		elicitationComplete:  o.OnElicitationComplete,
		taskStatus:           o.OnTaskStatus,
		raw:                  o.OnNotification,
	}
}

// any reports whether at least one callback is set.
func (h *notificationHandlers) any() bool {
	return h.progress != nil || h.logMessage != nil || h.resourceUpdated != nil ||
		h.resourcesListChanged != nil || h.toolsListChanged != nil || h.promptsListChanged != nil ||
		h.elicitationComplete != nil || h.taskStatus != nil || h.raw != nil
}

// deliver runs the callbacks for one notification. The engine calls it
// one notification at a time, in arrival order, from the first message
// of the session on (it is subscribed before initialize is sent).
func (c *Client) deliver(n *jsonrpc.Notification) {
	if c.fromStaleListen(n) {
		return
	}
	c.deliverMu.Lock() // one at a time with announceAfterListener
	defer c.deliverMu.Unlock()
	h := &c.opts.notify
	ctx := context.Context(sessionCtx{c})
	switch n.Method {
	case NotificationProgress:
		deliverTyped(c, ctx, n, h.progress)
	case NotificationMessage:
		deliverTyped(c, ctx, n, h.logMessage)
	case NotificationResourceUpdated:
		deliverTyped(c, ctx, n, h.resourceUpdated)
	case NotificationResourcesListChanged:
		deliverSignal(ctx, h.resourcesListChanged)
	case NotificationToolsListChanged:
		deliverSignal(ctx, h.toolsListChanged)
	case NotificationPromptsListChanged:
		deliverSignal(ctx, h.promptsListChanged)
	case NotificationElicitationComplete:
		deliverTyped(c, ctx, n, h.elicitationComplete)
	case NotificationTasksStatus:
		deliverTyped(c, ctx, n, h.taskStatus)
	}
	if h.raw != nil {
		h.raw(ctx, n)
	}
}

// deliverTyped decodes n's params for fn, if fn is set.
func deliverTyped[T any](c *Client, ctx context.Context, n *jsonrpc.Notification, fn func(context.Context, T)) {
	if fn == nil {
		return
	}
	var v T
	if c.decodeNotification(n, &v) {
		fn(ctx, v)
	}
}

// deliverSignal calls fn, if set, for a notification without content.
func deliverSignal(ctx context.Context, fn func(context.Context)) {
	if fn != nil {
		fn(ctx)
	}
}

// decodeNotification decodes n's params into v; an undecodable
// notification is reported to the ErrorHook and dropped.
func (c *Client) decodeNotification(n *jsonrpc.Notification, v any) bool {
	err := errors.New("params are missing")
	if len(n.Params) > 0 {
		err = json.Unmarshal(n.Params, v)
	}
	if err != nil {
		c.report(fmt.Errorf("mcp: %s: undecodable notification dropped: %w", n.Method, err))
		return false
	}
	return true
}
