package manager

import (
	"reflect"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
)

// The lists a server can announce changes to; indexes of server.refresh.
const (
	toolList = iota
	promptList
	resourceList
	numLists
)

// server is one configured server and its supervision state.
//
// Lock order: Manager.mu or Manager.tableMu, then server.mu, then the
// event hub's. Events about state changes are published while mu is held,
// so subscribers see them in the order the changes happened.
type server struct {
	m    *Manager
	name string
	// cfg is nil when the definition is invalid or untrusted; invalid
	// and untrusted say why.
	cfg       *config.Server
	invalid   error
	untrusted *UntrustedError
	// kind is the config's type of an untrusted server, for its status.
	kind   string
	source config.Source
	key    string // tool cache key

	// refresh carries list_changed announcements from the notification
	// callback to the supervisor, which debounces them (see debouncer);
	// capacity 1, so the callback never blocks.
	refresh [numLists]chan struct{}

	mu          sync.Mutex
	state       State
	err         error
	client      *mcp.Client // set while connected
	info        mcp.Implementation
	tools       []mcp.Tool   // filtered
	names       *serverNames // of tools, for the tool table
	toolsKnown  bool
	toolsCached bool
	// stale is when each live list (toolList, promptList, resourceList)
	// goes stale by its ttlMs; zero when it does not by time (see
	// freshness.go).
	stale     [numLists]time.Time
	prompts   []mcp.Prompt
	resources []mcp.Resource
	// changed is closed and replaced on every state change, waking the
	// calls that wait for the server.
	changed chan struct{}
	// running: a supervisor goroutine owns the server.
	running bool
	// settled is closed when the first attempt of the current supervisor
	// has ended, either way.
	settled chan struct{}
	// attempt numbers the attempt under way or last made since the
	// supervisor started; streak counts failures in a row, for the
	// breaker.
	attempt, streak int
	// connects and failures count attempts' outcomes, so Connect can tell
	// the attempt it waits for from earlier ones.
	connects, failures int
	everConnected      bool
	// restart is the client whose end Reconnect asked for: that end is
	// no crash (see run).
	restart *mcp.Client

	// restore is what the last connection set up on the server
	// (subscriptions, log level), for the next one to set up again.
	// Guarded by mu.
	restore *mcp.SessionState
}

func newServer(m *Manager, name string) *server {
	s := &server{m: m, name: name, state: StateIdle, changed: make(chan struct{})}
	for i := range s.refresh {
		s.refresh[i] = make(chan struct{}, 1)
	}
	return s
}

// setStateLocked moves to st, records err and wakes waiters. s.mu is held.
func (s *server) setStateLocked(st State, err error) {
	s.state = st
	s.err = err
	close(s.changed)
	s.changed = make(chan struct{})
}

// attemptStateLocked is the state while attempt s.attempt is under way.
// s.mu is held.
func (s *server) attemptStateLocked() State {
	switch {
	case s.everConnected:
		return StateReconnecting
	case s.attempt > 1:
		return StateRetrying
	}
	return StateConnecting
}

// emit publishes an event about this server.
func (s *server) emit(e Event) {
	e.Server = s.name
	s.m.hub.publish(e)
}

// autoStart reports whether Start connects the server.
func (s *server) autoStart() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == StateIdle
}

func (s *server) status() ServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := ServerStatus{
		Name:        s.name,
		State:       s.state,
		ToolCount:   len(s.tools),
		ToolsCached: s.toolsKnown && s.toolsCached,
		Err:         s.err,
		Attempt:     s.attempt,
		ServerInfo:  s.info,
		Source:      s.source,
	}
	if s.cfg != nil {
		st.Transport = s.cfg.Type
	} else {
		st.Transport = s.kind
	}
	return st
}

// setToolsLocked replaces the tool list with the allowed, first-of-a-name
// tools of list and reports whether that changed what Tools() shows.
// list becomes the server's: the caller must not use it afterwards.
func (s *server) setToolsLocked(list []mcp.Tool, cached bool) bool {
	// Filtered in place: every caller hands over a list of its own (a
	// fresh listing or the cache file's), and a copy would cost 144
	// bytes a tool on every connect.
	kept := list[:0]
	names := make([]string, 0, len(list))
	seen := make(map[string]bool, len(list))
	for _, t := range list {
		if seen[t.Name] || (s.cfg != nil && !s.cfg.ToolAllowed(t.Name)) {
			continue
		}
		seen[t.Name] = true
		kept = append(kept, t)
		names = append(names, t.Name)
	}
	clear(list[len(kept):]) // what was left out holds no memory
	kept = kept[:len(kept):len(kept)]
	changed := !s.toolsKnown || s.toolsCached != cached || !reflect.DeepEqual(kept, s.tools)
	s.tools, s.toolsKnown, s.toolsCached = kept, true, cached
	// The same names keep their naming, so the table keeps its
	// assignment when only descriptions or the cached flag changed.
	if s.names == nil || !s.names.sameTools(names) {
		s.names = newServerNames(s.name, names)
	}
	return changed
}

// loadCache lets the cached tools stand in until the server connects.
func (s *server) loadCache() {
	if s.m.cache == nil || s.cfg == nil || !s.cfg.Enabled {
		return
	}
	tools, _, ok, warn := s.m.cache.load(s.key, s.name, time.Now())
	if warn != nil {
		s.emit(Event{Kind: Warning, Err: warn})
	}
	if !ok {
		return
	}
	s.mu.Lock()
	if !s.toolsKnown {
		s.setToolsLocked(tools, true)
	}
	s.mu.Unlock()
}

// saveCache records the live tools; a failure is only a warning. A
// remote server's list that its server declared "private" (cacheScope,
// 2026-07-28) is not written, and an older file is removed: the file
// stands in for whoever next runs this definition, perhaps under another
// account, and a private list must not cross authorization contexts. A
// local process has no such context; a list without a scope (every older
// server) is written as before.
func (s *server) saveCache(tools []mcp.Tool, hint mcp.CacheHint) {
	if s.m.cache == nil {
		return
	}
	if hint.CacheScope != "" && hint.Private() && s.cfg != nil && s.cfg.Type != config.TypeStdio && s.cfg.Type != "" {
		if err := s.m.cache.remove(s.key); err != nil {
			s.emit(Event{Kind: Warning, Err: err})
		}
		return
	}
	if err := s.m.cache.save(s.key, s.name, tools, time.Now()); err != nil {
		s.emit(Event{Kind: Warning, Err: err})
	}
}

// start runs a supervisor for the server unless one runs already, and
// returns the channel closed when its first attempt has ended. reset
// clears the breaker's record of failures (explicit Connect).
func (s *server) start(reset bool) (<-chan struct{}, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if s.m.closed {
		return nil, ErrShutdown
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return s.settled, nil
	}
	if reset {
		s.streak = 0
	}
	// The state moves now, not when the goroutine gets going, so that a
	// caller that waits for the server never sees the state it was
	// started from (idle, lazy, breaker-open) as the outcome.
	s.attempt = 1
	s.setStateLocked(s.attemptStateLocked(), s.err)
	s.running = true
	s.settled = make(chan struct{})
	s.m.wg.Add(1)
	go s.run(s.m.ctx, s.settled)
	return s.settled, nil
}

// stopped marks the server stopped once the manager closed.
func (s *server) stopped() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateDisabled || s.cfg == nil || s.state == StateStopped {
		return
	}
	s.client = nil
	s.running = false
	if s.toolsKnown {
		s.toolsCached = true
	}
	s.setStateLocked(StateStopped, nil)
	s.emit(Event{Kind: Closed})
}
