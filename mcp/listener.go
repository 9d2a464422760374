package mcp

import (
	"context"

	"github.com/mcpwire/mcpwire/internal/seam"
)

// announceAfterListener makes up for list_changed notifications lost
// before the GET listener opened. Over Streamable HTTP (2025-11-25 and
// older) the listener's GET goes out after notifications/initialized, and
// a server that announces a change the moment it hears initialized
// (server-everything registers tools then) sends it on no stream at all.
// So once the listener is open, each list_changed callback whose list the
// server advertised as changing is called once: the list may have
// changed, and the caller's re-list sees it. Only the typed callbacks are
// called (nothing arrived that OnNotification could see), one at a time
// with the engine's deliveries (see deliver).
func (c *Client) announceAfterListener() {
	if c.modern != nil || c.listenerHeld.Load() {
		return
	}
	if _, ok := c.stream.(seam.ListenerHolder); !ok {
		return
	}
	caps, h := &c.init.Capabilities, &c.opts.notify
	ctx := context.Context(sessionCtx{c})
	c.deliverMu.Lock()
	defer c.deliverMu.Unlock()
	if caps.Tools != nil && caps.Tools.ListChanged {
		deliverSignal(ctx, h.toolsListChanged)
	}
	if caps.Prompts != nil && caps.Prompts.ListChanged {
		deliverSignal(ctx, h.promptsListChanged)
	}
	if caps.Resources != nil && caps.Resources.ListChanged {
		deliverSignal(ctx, h.resourcesListChanged)
	}
}

// holdListener holds back the stream's channel for what the server says
// unprompted (Streamable HTTP's GET listener, see seam.ListenerHolder)
// when this session could not take anything that arrives there: no
// notification callback, no server→client request declared, and no tasks
// whose status notifications the client watches. The server may send
// nothing else outside a request. OnNotification and Conn release it.
func (c *Client) holdListener() {
	h, ok := c.stream.(seam.ListenerHolder)
	if !ok || c.opts.notify.any() || c.caps.serverMayAsk() || c.init.Capabilities.Tasks != nil {
		return
	}
	h.HoldListener()
	c.listenerHeld.Store(true)
}

// releaseListener opens a listener held by holdListener and waits, within
// the transport's short bound, until it is established, so that what the
// server sends from then on reaches the new subscriber.
func (c *Client) releaseListener() {
	if c.listenerHeld.Swap(false) {
		c.stream.(seam.ListenerHolder).ReleaseListener(context.Background())
	}
}

// serverMayAsk reports whether the client declared a feature the server
// may ask it for (roots, sampling, elicitation, tasks, or an experimental
// one).
func (cc *ClientCapabilities) serverMayAsk() bool {
	return cc.Roots != nil || cc.Sampling != nil || cc.Elicitation != nil || cc.Tasks != nil || len(cc.Experimental) > 0
}
