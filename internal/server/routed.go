package server

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Routed methods let a proxy (the gateway) answer a method itself instead
// of from what was registered with Add*: its resources, prompts and
// completions live upstream, so it routes each request there. The core
// keeps the protocol around them: sessions, eras, paging, cancellation,
// the subscription bookkeeping that resources/updated goes by.

// MethodHandler answers one request of a routed method. params are the
// request's params as sent (nil when absent); ss is the asking session.
type MethodHandler func(ctx context.Context, ss *Session, params json.RawMessage) (any, error)

// ListItems gives the whole list a routed list method pages through.
type ListItems func(ctx context.Context) []json.RawMessage

// ListenSubscriber holds, for one 2026-07-28 subscriptions/listen
// stream, the resource subscriptions it asks for. It returns the URIs it
// holds (the acknowledgement lists only those) and release, which the
// core calls once when the stream ends.
type ListenSubscriber func(ctx context.Context, ss *Session, uris []string) (held []string, release func())

type routedState struct {
	mu      sync.Mutex
	methods map[string]routedMethod
	caps    json.RawMessage
	listen  ListenSubscriber
}

// HandleListenSubscriptions makes h hold the resourceSubscriptions of
// every subscriptions/listen stream, as a routed resources/subscribe does
// for an older-era session: a proxy's resources live upstream, and an
// upstream tells of updates only to a client that subscribed.
func (s *Server) HandleListenSubscriptions(h ListenSubscriber) {
	s.routed.mu.Lock()
	s.routed.listen = h
	s.routed.mu.Unlock()
}

func (s *Server) listenSubscriber() ListenSubscriber {
	s.routed.mu.Lock()
	defer s.routed.mu.Unlock()
	return s.routed.listen
}

// routedMethod is a routed method before it knows its session.
type routedMethod func(ss *Session) methodFunc

// HandleMethod makes h answer method (resources/read, prompts/get,
// completion/complete, logging/setLevel, resources/subscribe, …) in place
// of the built-in handler. For resources/subscribe and unsubscribe the
// session's subscription is recorded when h succeeds, so that
// ResourceUpdated reaches it; for logging/setLevel the session's level is.
func (s *Server) HandleMethod(method string, h MethodHandler) {
	s.setRouted(method, func(ss *Session) methodFunc {
		return func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			res, err := h(ctx, ss, req.Params)
			if err != nil {
				return nil, err
			}
			switch method {
			case "resources/subscribe", "resources/unsubscribe":
				if err := ss.subscribe(req, method == "resources/subscribe"); err != nil {
					return nil, err
				}
			case "logging/setLevel":
				if _, err := ss.setLevel(ctx, req); err != nil {
					return nil, err
				}
			}
			return res, nil
		}
	})
}

// HandleList makes a list method (resources/list, resources/templates/list,
// prompts/list) answer items(), paged by Options.PageSize under key
// ("resources", "resourceTemplates", "prompts").
func (s *Server) HandleList(method, key string, items ListItems) {
	s.setRouted(method, func(ss *Session) methodFunc {
		return func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			got, next, err := page(ss.srv, req, items(ctx))
			if err != nil {
				return nil, err
			}
			return listResult(key, got, next), nil
		}
	})
}

func (s *Server) setRouted(method string, f routedMethod) {
	s.routed.mu.Lock()
	defer s.routed.mu.Unlock()
	if s.routed.methods == nil {
		s.routed.methods = map[string]routedMethod{}
	}
	s.routed.methods[method] = f
}

func (ss *Session) routedHandler(method string) methodFunc {
	r := &ss.srv.routed
	r.mu.Lock()
	f := r.methods[method]
	r.mu.Unlock()
	if f == nil {
		return nil
	}
	return f(ss)
}

// SetCapabilities replaces the capabilities later handshakes announce (a
// proxy's change as upstreams come and go); it wins over
// Options.Capabilities. Sessions already open keep what they were told.
func (s *Server) SetCapabilities(caps json.RawMessage) {
	s.routed.mu.Lock()
	s.routed.caps = caps
	s.routed.mu.Unlock()
}

func (s *Server) routedCapabilities() json.RawMessage {
	s.routed.mu.Lock()
	defer s.routed.mu.Unlock()
	return s.routed.caps
}

// Announce sends a notification with no params (a list_changed) to every
// session and to the modern listeners that asked for it.
func (s *Server) Announce(method string) {
	s.broadcast(method, nil, "")
}

// LogAs sends notifications/message {level, logger, data} to the client
// of an older-era session unless it asked (logging/setLevel) for a more
// severe minimum level, without waiting for it (a proxy relaying an
// upstream's log must not stall on one slow host). It reports whether the
// message went out.
func (ss *Session) LogAs(logger, level string, data any) bool {
	rank := slices.Index(logLevels, level)
	if rank < 0 || !ss.isInitialized() || slices.Index(logLevels, ss.LogLevel()) > rank {
		return false
	}
	ss.notifyAsync("notifications/message", map[string]any{"level": level, "logger": logger, "data": data})
	return true
}
