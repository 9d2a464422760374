package manager

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// run is the server's supervisor: it connects, serves the connection
// until it ends, and reconnects with backoff until the breaker trips or
// the manager closes. It is the only goroutine that changes the server's
// connection state, so state events come out in order.
func (s *server) run(ctx context.Context, settled chan struct{}) {
	defer s.m.wg.Done()
	settle := sync.OnceFunc(func() { close(settled) })
	defer settle()
	step := 0
	for attempt := 1; ; attempt++ {
		c, err := s.connect(ctx, attempt)
		dropped := err == nil
		if dropped {
			settle()
			up := time.Now()
			err = s.serve(ctx, c)
			_ = c.Close()
			lasted := time.Since(up) >= s.m.opts.BreakerWindow
			asked := s.takeRestart(c)
			s.disconnected(lasted)
			if lasted {
				step = 0
			}
			if asked && ctx.Err() == nil {
				// Reconnect ended it: no failure for the breaker, no
				// backoff; the next attempt starts now.
				s.mu.Lock()
				s.setStateLocked(StateReconnecting, err)
				s.emit(Event{Kind: Reconnecting, Err: err, Attempt: attempt + 1})
				s.mu.Unlock()
				continue
			}
		}
		if ctx.Err() != nil {
			s.exit()
			return
		}
		if s.crashed(err, dropped) {
			return
		}
		delay := s.m.opts.backoff(step)
		step++
		s.mu.Lock()
		if dropped {
			s.setStateLocked(StateReconnecting, err)
		} else {
			s.setStateLocked(StateFailed, err)
		}
		s.emit(Event{Kind: Reconnecting, Err: err, Attempt: attempt + 1, Delay: delay})
		s.mu.Unlock()
		// A first attempt that failed has settled once its state says so.
		settle()
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			s.exit()
			return
		case <-t.C:
		}
	}
}

// crashed records a failure (an attempt that failed, or a connection that
// ended before it was up for BreakerWindow) and trips the breaker after
// BreakerCrashes of them in a row; then the supervisor must return.
// Failures are counted, not timed, so that attempts that each hang until
// the connect timeout trip it too.
func (s *server) crashed(err error, dropped bool) (tripped bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !dropped {
		s.failures++
		s.emit(Event{Kind: Failed, Err: err})
	}
	s.streak++
	limit := s.m.opts.BreakerCrashes
	if limit < 0 || s.streak < limit {
		return false
	}
	s.running = false
	berr := &BreakerError{Failures: s.streak, Last: err}
	s.setStateLocked(StateBreakerOpen, berr)
	s.emit(Event{Kind: BreakerOpen, Err: berr})
	return true
}

// takeRestart reports whether Reconnect asked for the end of c, and
// forgets the request.
func (s *server) takeRestart(c *mcp.Client) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	asked := s.restart == c
	s.restart = nil
	return asked
}

// exit ends supervision because the manager is closing.
func (s *server) exit() {
	s.mu.Lock()
	s.running = false
	s.mu.Unlock()
}

// disconnected forgets the ended connection; its tools stay, as cached.
// A connection that was up for BreakerWindow (lasted) ends the run of
// failures the breaker counts.
func (s *server) disconnected(lasted bool) {
	s.mu.Lock()
	if s.client != nil {
		st := s.client.SessionState()
		s.restore = &st
	}
	s.client = nil
	if lasted {
		s.streak = 0
	}
	if s.toolsKnown {
		s.toolsCached = true
	}
	s.mu.Unlock()
	s.m.tableChanged()
}

// connect makes one attempt: transport, handshake, listings. On success
// the server is connected, its tools are in the table and the cache. An
// attempt cut off by ConnectTimeout (the manager's deadline, not ctx's)
// fails with jsonrpc.ErrTimeout.
func (s *server) connect(ctx context.Context, attempt int) (*mcp.Client, error) {
	c, err := s.connectOnce(ctx, attempt)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return nil, &connectTimeoutError{after: s.m.opts.ConnectTimeout, cause: err}
	}
	return c, err
}

// connectOnce is connect under the ConnectTimeout.
func (s *server) connectOnce(ctx context.Context, attempt int) (*mcp.Client, error) {
	s.mu.Lock()
	s.attempt = attempt
	s.setStateLocked(s.attemptStateLocked(), s.err)
	s.emit(Event{Kind: Connecting, Attempt: attempt})
	s.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	t, err := s.m.opts.Dial(cctx, s.cfg)
	if err != nil {
		return nil, fmt.Errorf("setting up the %s transport: %w", s.cfg.Type, err)
	}
	c, err := mcp.Connect(cctx, t, s.clientOptions())
	if err != nil {
		return nil, err
	}
	for _, ch := range s.refresh {
		select {
		case <-ch:
		default:
		}
	}
	tools, hint, err := listTools(cctx, c)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	prompts, promptsHint, _ := s.listPrompts(cctx, c)
	resources, resourcesHint, _ := s.listResources(cctx, c)

	s.mu.Lock()
	prev, known := s.tools, s.toolsKnown
	changed := s.setToolsLocked(tools, false)
	// The event says the tools differ from what stood for them (the
	// cache, or the last connection); a first listing is in Connected.
	differ := known && !reflect.DeepEqual(prev, s.tools)
	now := time.Now()
	s.setFreshLocked(toolList, now, hint.TTL())
	s.setFreshLocked(promptList, now, promptsHint.TTL())
	s.setFreshLocked(resourceList, now, resourcesHint.TTL())
	kept := s.tools
	s.prompts, s.resources = prompts, resources
	s.info = c.ServerInfo()
	s.mu.Unlock()
	// Cache and table first, so that whoever reacts to Connected sees
	// the new tools.
	s.saveCache(kept, hint)
	if changed {
		s.m.tableChanged()
	}
	s.mu.Lock()
	s.client = c
	s.everConnected = true
	s.connects++
	s.setStateLocked(StateConnected, nil)
	s.emit(Event{Kind: Connected, Tools: len(kept)})
	s.mu.Unlock()
	if differ {
		s.emit(Event{Kind: ToolsChanged, Tools: len(kept)})
	}
	return c, nil
}

// clientOptions derives the server's client options from the template:
// the server's name for the Origin that handlers see, the config's
// timeout, what the last connection set up, and the manager's own
// notification callback ahead of the template's.
func (s *server) clientOptions() *mcp.ClientOptions {
	var o mcp.ClientOptions
	if s.m.opts.Client != nil {
		o = *s.m.opts.Client
	}
	o.ServerName = s.name
	if s.cfg.TimeoutSet {
		// Hosts write one timeout per server: the deadline of every
		// request, tool calls (as their idle deadline) included, unless
		// the template sets ToolTimeout.
		o.Timeout = s.cfg.Timeout
		if o.Timeout == 0 {
			o.Timeout = mcp.NoTimeout
		}
	}
	if s.cfg.ProtocolVersion != "" {
		// The server's own pin ("protocolVersion" in its definition)
		// beats the template's.
		o.ProtocolVersion = s.cfg.ProtocolVersion
	}
	s.mu.Lock()
	o.Restore = s.restore
	s.mu.Unlock()
	user := o.OnNotification
	o.OnNotification = func(ctx context.Context, n *mcp.Notification) {
		s.onNotification(n)
		if user != nil {
			user(ctx, n)
		}
	}
	// The list_changed refresh works from OnNotification in every era;
	// the callbacks are set too because in 2026-07-28 they are what opts
	// the client in to the notifications (subscriptions/listen).
	o.OnToolsListChanged = orNoop(o.OnToolsListChanged)
	o.OnPromptsListChanged = orNoop(o.OnPromptsListChanged)
	o.OnResourcesListChanged = orNoop(o.OnResourcesListChanged)
	dropped := o.OnNotificationsDropped
	o.OnNotificationsDropped = func(ctx context.Context, k int) {
		s.emit(Event{Kind: Dropped, Dropped: k})
		if dropped != nil {
			dropped(ctx, k)
		}
	}
	next := o.ErrorHook
	o.ErrorHook = func(err error) {
		s.emit(Event{Kind: Warning, Err: err})
		if next != nil {
			next(err)
		}
	}
	return &o
}

// onNotification fans every notification out as an event and turns
// list_changed into a refresh request for the supervisor. It runs on the
// client's delivery goroutine and never blocks.
func (s *server) onNotification(n *jsonrpc.Notification) {
	// The acknowledgement of the client's own subscriptions/listen is
	// the protocol's bookkeeping, nothing the server has to say.
	if n.Method == mcp.NotificationSubscriptionsAcknowledged {
		return
	}
	s.emit(Event{Kind: Notification, Notification: n})
	var list int
	switch n.Method {
	case mcp.NotificationToolsListChanged:
		list = toolList
	case mcp.NotificationPromptsListChanged:
		list = promptList
	case mcp.NotificationResourcesListChanged:
		list = resourceList
	default:
		return
	}
	select {
	case s.refresh[list] <- struct{}{}:
	default: // a refresh is already pending
	}
}

// serve watches a live connection until it ends or the manager closes,
// refreshing lists on request (debounced, see Options.RefreshQuiet) and
// pinging when KeepAlive is set. It returns why the connection ended.
func (s *server) serve(ctx context.Context, c *mcp.Client) error {
	var tick <-chan time.Time
	if ka := s.m.opts.KeepAlive; ka > 0 {
		t := time.NewTicker(ka)
		defer t.Stop()
		tick = t.C
	}
	due := newDebouncer(s.m.opts.RefreshQuiet, s.m.opts.RefreshMaxWait)
	defer due.stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Done():
			return fmt.Errorf("connection ended: %w", c.Err())
		case <-s.refresh[toolList]:
			due.note(toolList)
		case <-s.refresh[promptList]:
			due.note(promptList)
		case <-s.refresh[resourceList]:
			due.note(resourceList)
		case <-due.timer.C:
			for _, list := range due.take() {
				s.refreshList(ctx, c, list)
			}
		case <-tick:
			// The ping's own deadline, not a ctx deadline: a ping that
			// goes unanswered is the request's timeout (ErrTimeout).
			err := c.Ping(mcp.WithRequestTimeout(ctx, s.m.opts.KeepAlive))
			if err != nil && ctx.Err() == nil {
				_ = c.Close()
				return fmt.Errorf("keepalive ping failed: %w", err)
			}
		}
	}
}

// refreshList re-lists one list after its list_changed, or once its
// ttlMs has passed.
func (s *server) refreshList(ctx context.Context, c *mcp.Client, list int) {
	switch list {
	case toolList:
		s.refreshTools(ctx, c)
	case promptList:
		s.refreshPrompts(ctx, c)
	case resourceList:
		s.refreshResources(ctx, c)
	}
}

// listTools lists every tool, with the listing's caching hint; a server
// without tools (undeclared, or -32601) has none.
func listTools(ctx context.Context, c *mcp.Client) ([]mcp.Tool, mcp.CacheHint, error) {
	tools, hint, err := c.ListToolsWithHint(ctx)
	var rpcErr *jsonrpc.Error
	if errors.Is(err, mcp.ErrUnsupported) || errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeMethodNotFound {
		return nil, mcp.CacheHint{}, nil
	}
	if err != nil {
		return nil, mcp.CacheHint{}, fmt.Errorf("listing tools: %w", err)
	}
	return tools, hint, nil
}

// listPrompts lists the prompts of a server that declared them; a failure
// is a warning, not a failed connection.
func (s *server) listPrompts(ctx context.Context, c *mcp.Client) ([]mcp.Prompt, mcp.CacheHint, bool) {
	return listDeclared(ctx, s, c.ServerCapabilities().Prompts != nil, "prompts", c.ListPromptsWithHint)
}

// listResources is listPrompts for resources.
func (s *server) listResources(ctx context.Context, c *mcp.Client) ([]mcp.Resource, mcp.CacheHint, bool) {
	return listDeclared(ctx, s, c.ServerCapabilities().Resources != nil, "resources", c.ListResourcesWithHint)
}

// listDeclared runs list when the server declared the feature. A failure
// becomes a Warning event and ok=false; an undeclared feature is an empty,
// successful listing (with no caching hint: nothing to refresh).
func listDeclared[T any](ctx context.Context, s *server, declared bool, what string,
	list func(context.Context) ([]T, mcp.CacheHint, error)) ([]T, mcp.CacheHint, bool) {
	if !declared {
		return nil, mcp.CacheHint{}, true
	}
	items, hint, err := list(ctx)
	if err != nil {
		s.emit(Event{Kind: Warning, Err: fmt.Errorf("listing %s: %w", what, err)})
		return nil, mcp.CacheHint{}, false
	}
	return items, hint, true
}

// refreshTools re-lists tools after tools/list_changed, or when the list
// went stale by its ttlMs.
func (s *server) refreshTools(ctx context.Context, c *mcp.Client) {
	rctx, cancel := context.WithTimeout(ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	tools, hint, err := listTools(rctx, c)
	if err != nil {
		if ctx.Err() == nil && c.Err() == nil {
			s.emit(Event{Kind: Warning, Err: fmt.Errorf("refreshing the tool list: %w", err)})
		}
		return
	}
	s.mu.Lock()
	changed := s.setToolsLocked(tools, false)
	s.setFreshLocked(toolList, time.Now(), hint.TTL())
	kept := s.tools
	s.mu.Unlock()
	if !changed {
		return
	}
	s.saveCache(kept, hint)
	s.m.tableChanged()
	s.emit(Event{Kind: ToolsChanged, Tools: len(kept)})
}

// refreshPrompts re-lists prompts after prompts/list_changed, or when the
// list went stale by its ttlMs. The event says the list changed: a
// refresh by time that finds the same list is not one.
func (s *server) refreshPrompts(ctx context.Context, c *mcp.Client) {
	rctx, cancel := context.WithTimeout(ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	p, hint, ok := s.listPrompts(rctx, c)
	if !ok {
		return
	}
	s.mu.Lock()
	changed := !reflect.DeepEqual(s.prompts, p)
	s.prompts = p
	s.setFreshLocked(promptList, time.Now(), hint.TTL())
	s.mu.Unlock()
	if changed {
		s.emit(Event{Kind: PromptsChanged})
	}
}

// refreshResources is refreshPrompts for resources.
func (s *server) refreshResources(ctx context.Context, c *mcp.Client) {
	rctx, cancel := context.WithTimeout(ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	r, hint, ok := s.listResources(rctx, c)
	if !ok {
		return
	}
	s.mu.Lock()
	changed := !reflect.DeepEqual(s.resources, r)
	s.resources = r
	s.setFreshLocked(resourceList, time.Now(), hint.TTL())
	s.mu.Unlock()
	if changed {
		s.emit(Event{Kind: ResourcesChanged})
	}
}

// orNoop returns fn, or a callback that does nothing when fn is nil.
func orNoop(fn func(context.Context)) func(context.Context) {
	if fn != nil {
		return fn
	}
	return func(context.Context) {}
}
