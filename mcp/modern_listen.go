package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The modern era replaces resources/subscribe and the GET listener with
// subscriptions/listen: one long-lived request whose reply carries the
// notifications the client opted in to. The client keeps one open while
// it wants any: the list_changed callbacks in ClientOptions opt in to
// their lists, and SubscribeResource to a resource's updates. A listen
// that ends is opened again after a backoff; a change of the opt-ins
// replaces it.

// MethodSubscriptionsListen opens a modern-era notification stream.
const MethodSubscriptionsListen = "subscriptions/listen"

// NotificationSubscriptionsAcknowledged is a listen's first message: the
// opt-ins the server agreed to.
const NotificationSubscriptionsAcknowledged = "notifications/subscriptions/acknowledged"

// metaSubscriptionID tags every message of a listen with the JSON-RPC id
// of its subscriptions/listen request.
const metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// Re-open backoff of a listen that ended.
const (
	listenBackoffFirst = 100 * time.Millisecond
	listenBackoffMax   = 10 * time.Second
)

// listenFilter is the notifications params of subscriptions/listen.
type listenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

func (f *listenFilter) empty() bool {
	return !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(f.ResourceSubscriptions) == 0
}

// listenLoop is a client's subscriptions/listen: at most one goroutine
// keeps a listen open; a change of the opt-ins cancels the open one and
// the goroutine opens the new one at once.
type listenLoop struct {
	mu      sync.Mutex
	running bool
	stop    context.CancelFunc // ends the open listen; nil when none
	changed bool               // the filter changed since the open listen began
	// id is the JSON-RPC id of the open listen (invalid when none), the
	// subscriptionId its notifications carry; filter is what it asked for.
	id     jsonrpc.ID
	filter listenFilter
}

// listenFilterNow is what the client opts in to now.
func (c *Client) listenFilterNow() listenFilter {
	h := &c.opts.notify
	f := listenFilter{
		ToolsListChanged:     h.toolsListChanged != nil,
		PromptsListChanged:   h.promptsListChanged != nil,
		ResourcesListChanged: h.resourcesListChanged != nil,
	}
	c.state.mu.Lock()
	f.ResourceSubscriptions = slices.Clone(c.state.subs)
	c.state.mu.Unlock()
	return f
}

// relisten makes the open listen match the opt-ins: it starts the loop
// when there is something to listen to, and replaces an open listen.
func (c *Client) relisten() {
	l := &c.listen
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running {
		l.changed = true
		if l.stop != nil {
			l.stop()
		}
		return
	}
	if f := c.listenFilterNow(); f.empty() {
		return
	}
	l.running = true
	go c.listenLoop()
}

// listenLoop keeps a listen open until the session ends or nothing is
// wanted any more.
func (c *Client) listenLoop() {
	l := &c.listen
	backoff := listenBackoffFirst
	for {
		ctx, stop := context.WithCancel(sessionCtx{c})
		l.mu.Lock()
		f := c.listenFilterNow()
		if f.empty() || c.conn.Err() != nil {
			l.running, l.stop = false, nil
			l.mu.Unlock()
			stop()
			return
		}
		l.stop, l.changed, l.filter = stop, false, f
		l.mu.Unlock()
		err := c.call(ctx, MethodSubscriptionsListen, struct {
			Notifications listenFilter `json:"notifications"`
		}{f}, &jsonrpc.CallOptions{Timeout: NoTimeout, OnStart: c.listenStarted}, nil)
		stop()
		l.mu.Lock()
		changed := l.changed
		l.id = jsonrpc.ID{} // what still comes tagged with it is stale
		l.mu.Unlock()
		if changed {
			backoff = listenBackoffFirst
			continue // replaced: open the new one at once
		}
		select {
		case <-c.conn.Done():
			continue // the loop's check ends it
		default:
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			c.report(fmt.Errorf("mcp: %s ended; opening it again in %v: %w", MethodSubscriptionsListen, backoff, err))
		}
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-c.conn.Done():
			t.Stop()
		}
		backoff = min(2*backoff, listenBackoffMax)
	}
}

// listenStarted records the id of the listen about to be sent, before the
// server can tag anything with it.
func (c *Client) listenStarted(id jsonrpc.ID) {
	c.listen.mu.Lock()
	c.listen.id = id
	c.listen.mu.Unlock()
}

// listenNotifications are the notifications that travel on a listen.
var listenNotifications = []string{
	NotificationToolsListChanged, NotificationPromptsListChanged, NotificationResourcesListChanged,
	NotificationResourceUpdated, NotificationSubscriptionsAcknowledged,
}

// fromStaleListen reports whether n, in the modern era, is tagged with the
// subscriptionId of a listen that is no longer the open one (a replaced or
// ended listen, whose stream may still deliver a little): such a
// notification is dropped. An untagged one is delivered, as a lenient
// reading of a server that forgot the tag. An acknowledgement of the open
// listen is checked against what it asked for.
func (c *Client) fromStaleListen(n *jsonrpc.Notification) bool {
	if c.modern == nil || !bytes.Contains(n.Params, []byte("subscriptionId")) || !slices.Contains(listenNotifications, n.Method) {
		return false
	}
	var p struct {
		Meta struct {
			ID *jsonrpc.ID `json:"io.modelcontextprotocol/subscriptionId"`
		} `json:"_meta"`
		Notifications *listenFilter `json:"notifications"`
	}
	if json.Unmarshal(n.Params, &p) != nil || p.Meta.ID == nil {
		return false
	}
	l := &c.listen
	l.mu.Lock()
	open, asked := l.id, l.filter
	l.mu.Unlock()
	if !open.IsValid() || *p.Meta.ID != open {
		return true
	}
	if n.Method == NotificationSubscriptionsAcknowledged && p.Notifications != nil {
		if missing := asked.notGranted(p.Notifications); missing != "" {
			c.report(fmt.Errorf("mcp: %s: the server does not send %s; those callbacks will not be called", MethodSubscriptionsListen, missing))
		}
	}
	return false
}

// notGranted names what f asked for and got lists, "" if all.
func (f *listenFilter) notGranted(got *listenFilter) string {
	var out []string
	if f.ToolsListChanged && !got.ToolsListChanged {
		out = append(out, "toolsListChanged")
	}
	if f.PromptsListChanged && !got.PromptsListChanged {
		out = append(out, "promptsListChanged")
	}
	if f.ResourcesListChanged && !got.ResourcesListChanged {
		out = append(out, "resourcesListChanged")
	}
	for _, uri := range f.ResourceSubscriptions {
		if !slices.Contains(got.ResourceSubscriptions, uri) {
			out = append(out, fmt.Sprintf("updates of %q", clip(uri)))
		}
	}
	return strings.Join(out, ", ")
}
