package server

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// listenFilter is the notifications field of subscriptions/listen, and of
// its acknowledgement.
type listenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// listener is one open subscriptions/listen stream.
type listener struct {
	ss     *Session
	id     jsonrpc.ID
	filter listenFilter
	end    chan struct{} // closed by EndSubscriptions

	// The listen handler itself delivers the queued notifications, in the
	// order of the changes and only after the acknowledgement.
	mu      sync.Mutex
	pending []pendingNote
	wake    chan struct{} // capacity 1: a send means "pending grew"
}

type pendingNote struct {
	method string
	params map[string]json.RawMessage
}

func (l *listener) enqueue(n pendingNote) {
	l.mu.Lock()
	l.pending = append(l.pending, n)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// deliver sends the queued notifications until ctx ends or the server
// ends the subscription.
func (l *listener) deliver(ctx context.Context) error {
	for {
		l.mu.Lock()
		batch := l.pending
		l.pending = nil
		l.mu.Unlock()
		for _, n := range batch {
			if err := l.ss.notifyRelated(ctx, n.method, n.params, l.id); err != nil {
				return err
			}
		}
		select {
		case <-l.wake:
		case <-ctx.Done():
			return ctx.Err()
		case <-l.end:
			return nil
		}
	}
}

// wants reports whether the listener opted in to method (for uri).
func (l *listener) wants(method, uri string) bool {
	switch method {
	case "notifications/tools/list_changed":
		return l.filter.ToolsListChanged
	case "notifications/prompts/list_changed":
		return l.filter.PromptsListChanged
	case "notifications/resources/list_changed":
		return l.filter.ResourcesListChanged
	case "notifications/resources/updated":
		return slices.Contains(l.filter.ResourceSubscriptions, uri)
	}
	return false
}

// listen serves subscriptions/listen: it acknowledges the opt-ins the
// server can honour, then delivers them, tagged with the subscription id,
// until the client cancels (closes the HTTP stream, or sends
// notifications/cancelled on stdio), the session ends, or EndSubscriptions
// ends it gracefully with a result.
func (ss *Session) listen(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Notifications *listenFilter `json:"notifications"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if p.Notifications == nil {
		return nil, invalidParams("subscriptions/listen: params.notifications is missing")
	}
	s := ss.srv
	s.mu.Lock()
	hasPrompts, hasResources := len(s.prompts) > 0, len(s.resources)+len(s.templates) > 0
	s.mu.Unlock()
	if routed := s.routedCapabilities(); routed != nil {
		// A routing server (the gateway) registers none of the prompts and
		// resources it lists: what it advertises is what it announces.
		var caps struct{ Prompts, Resources json.RawMessage }
		if json.Unmarshal(routed, &caps) == nil {
			hasPrompts = hasPrompts || caps.Prompts != nil
			hasResources = hasResources || caps.Resources != nil
		}
	}
	ack := *p.Notifications
	ack.PromptsListChanged = ack.PromptsListChanged && hasPrompts
	ack.ResourcesListChanged = ack.ResourcesListChanged && hasResources
	if !hasResources {
		ack.ResourceSubscriptions = nil
	}
	if hold := s.listenSubscriber(); hold != nil && len(ack.ResourceSubscriptions) > 0 {
		held, release := hold(ctx, ss, ack.ResourceSubscriptions)
		defer release()
		ack.ResourceSubscriptions = held
	}
	l := &listener{ss: ss, id: req.ID, filter: ack, end: make(chan struct{}), wake: make(chan struct{}, 1)}
	s.modern.mu.Lock()
	if s.modern.listeners == nil {
		s.modern.listeners = map[*listener]struct{}{}
	}
	s.modern.listeners[l] = struct{}{}
	s.modern.mu.Unlock()
	err := ss.notifyRelated(ctx, "notifications/subscriptions/acknowledged", map[string]any{
		"_meta":         map[string]any{MetaSubscriptionID: req.ID},
		"notifications": ack,
	}, req.ID)
	defer func() {
		s.modern.mu.Lock()
		delete(s.modern.listeners, l)
		s.modern.mu.Unlock()
	}()
	if err != nil {
		return nil, err
	}
	if err := l.deliver(ctx); err != nil {
		return nil, err
	}
	return map[string]any{"_meta": map[string]any{MetaSubscriptionID: req.ID}}, nil
}

// notifyListeners delivers a change notification to the open
// subscriptions/listen streams that opted in to it.
func (s *Server) notifyListeners(method string, params any, uri string) {
	s.modern.mu.Lock()
	var targets []*listener
	for l := range s.modern.listeners {
		if l.wants(method, uri) {
			targets = append(targets, l)
		}
	}
	s.modern.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	fields := map[string]json.RawMessage{}
	if params != nil {
		raw, _ := json.Marshal(params)
		_ = json.Unmarshal(raw, &fields)
	}
	for _, l := range targets {
		tagged := make(map[string]json.RawMessage, len(fields)+1)
		for k, v := range fields {
			tagged[k] = v
		}
		tagged["_meta"], _ = json.Marshal(map[string]any{MetaSubscriptionID: l.id})
		l.enqueue(pendingNote{method: method, params: tagged})
	}
}

// Listeners returns how many subscriptions/listen streams are open, so a
// test can wait until a client listens before changing what it watches.
func (s *Server) Listeners() int {
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	return len(s.modern.listeners)
}

// EndSubscriptions ends every open subscriptions/listen stream gracefully,
// as a server shutting down does: each gets its result (resultType
// complete, the subscription id in _meta), which closes it.
func (s *Server) EndSubscriptions() {
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	for l := range s.modern.listeners {
		select {
		case <-l.end:
		default:
			close(l.end)
		}
	}
}
