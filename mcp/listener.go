package mcp

import (
	"context"

	"github.com/mcpwire/mcpwire/internal/seam"
)

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
