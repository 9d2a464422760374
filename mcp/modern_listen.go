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

// listener returns the client's listen state, made on first use.
func (c *Client) listener() *listenLoop { return madeOnUse(&c.listen) }

// listenLoop is a client's subscriptions/listen: at most one goroutine
// keeps a listen open; a change of the opt-ins cancels the open one and
// the goroutine opens the new one at once.
type listenLoop struct {
	mu sync.Mutex
	// pending wait for the next listen to open, current for the open one
	// to be acknowledged (or to end); see awaitListen.
	pending, current []chan struct{}
	acks             bool // a subscriber for the acknowledgements is in place

	running bool
	stop    context.CancelFunc // ends the open listen; nil when none
	changed bool               // the filter changed since the open listen began
	// id is the JSON-RPC id of the open listen (invalid when none), the
	// subscriptionId its notifications carry; filter is what it asked for.
	id     jsonrpc.ID
	filter listenFilter
}

// listenFilterNow is what the client opts in to now: the lists whose
// callback is set and whose list_changed the server advertised. Asking
// for one it did not advertise would only earn a refusal, and a warning
// about a callback that may never have been the user's (the manager sets
// them all).
func (c *Client) listenFilterNow() listenFilter {
	h := &c.opts.notify
	caps := &c.init.Capabilities
	f := listenFilter{
		ToolsListChanged:     h.toolsListChanged != nil && caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   h.promptsListChanged != nil && caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: h.resourcesListChanged != nil && caps.Resources != nil && caps.Resources.ListChanged,
	}
	f.ResourceSubscriptions = c.subscriptions()
	return f
}

// listenReadyBound bounds how long the client waits for a listen to be
// acknowledged (see awaitListen).
const listenReadyBound = 5 * time.Second

// awaitListen waits (bounded) until the server acknowledged the listen
// with the opt-ins of ready (from relisten): a change the server makes
// right after (a tool call that adds a tool or touches a resource) is
// then seen, as the legacy era sees it from the handshake on.
func (c *Client) awaitListen(ctx context.Context, ready <-chan struct{}) {
	if ready == nil {
		return
	}
	t := time.NewTimer(listenReadyBound)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	case <-c.conn.Done():
	}
}

// acknowledged releases the waiters of the open listen.
func (l *listenLoop) acknowledged() {
	l.mu.Lock()
	current := l.current
	l.current = nil
	l.mu.Unlock()
	for _, ch := range current {
		close(ch)
	}
}

// relisten makes the open listen match the opt-ins: it starts the loop
// when there is something to listen to, and replaces an open listen.
// It returns a channel closed once the server acknowledged the listen
// that carries the current opt-ins, nil when nothing is listened to.
func (c *Client) relisten() <-chan struct{} {
	if f := c.listenFilterNow(); c.listen.Load() == nil && f.empty() {
		return nil // nothing ever listened, nothing to listen to
	}
	l := c.listener()
	l.mu.Lock()
	defer l.mu.Unlock()
	if f := c.listenFilterNow(); !l.running && f.empty() {
		return nil
	}
	ready := make(chan struct{})
	l.pending = append(l.pending, ready)
	if !l.acks {
		l.acks = true
		c.conn.Subscribe(NotificationSubscriptionsAcknowledged, func(*jsonrpc.Notification) { l.acknowledged() })
	}
	if l.running {
		l.changed = true
		if l.stop != nil {
			l.stop()
		}
		return ready
	}
	l.running = true
	go c.listenLoop()
	return ready
}

// listenLoop keeps a listen open until the session ends or nothing is
// wanted any more.
func (c *Client) listenLoop() {
	l := c.listener()
	backoff := listenBackoffFirst
	for {
		ctx, stop := context.WithCancel(sessionCtx{c})
		l.mu.Lock()
		f := c.listenFilterNow()
		if f.empty() || c.conn.Err() != nil {
			l.running, l.stop = false, nil
			waiting := append(l.pending, l.current...)
			l.pending, l.current = nil, nil
			l.mu.Unlock()
			stop()
			for _, ch := range waiting {
				close(ch)
			}
			return
		}
		l.stop, l.changed, l.filter = stop, false, f
		l.current = append(l.current, l.pending...)
		l.pending = nil
		l.mu.Unlock()
		err := c.call(ctx, MethodSubscriptionsListen, struct {
			Notifications listenFilter `json:"notifications"`
		}{f}, &jsonrpc.CallOptions{Timeout: NoTimeout, OnStart: c.listenStarted}, nil)
		stop()
		l.acknowledged() // or ended: nobody waits for it any longer
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
			c.report(wrapf(err, "%s ended; opening it again in %v", MethodSubscriptionsListen, backoff))
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
	l := c.listener()
	l.mu.Lock()
	l.id = id
	l.mu.Unlock()
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
	l := c.listen.Load()
	if l == nil {
		return true // no listen was ever open: any tag is stale
	}
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
