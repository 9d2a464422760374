package manager

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/config"
)

// Manager runs many MCP servers for one client: it connects them in
// parallel, lets cached tools stand in for slow ones, names their tools
// for a model, routes calls, and supervises the connections (reconnects
// with backoff, a crash breaker, list_changed refreshes, keepalive).
//
// All methods are safe for concurrent use. Close ends everything it
// started.
type Manager struct {
	opts    Options
	cache   *toolCache // nil when disabled
	hub     hub
	servers []*server // config order; fixed after New
	byName  map[string]*server

	// ctx lives as long as the manager; supervisors and their
	// connections end with it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // supervisors

	mu        sync.Mutex // lifecycle; taken before any server's mu
	started   bool
	closed    bool
	closeDone chan struct{}
	closeErr  error

	// The tool table (see toolTable): tableGen counts changes to the
	// servers' tools, table is the latest build, tableMu serializes
	// builds and is taken before any server's mu.
	tableMu  sync.Mutex
	tableGen atomic.Uint64
	table    atomic.Pointer[toolTable]

	// staleAt holds, per list (toolList, promptList, resourceList), the
	// earliest time (Unix ns) a server's live list of that kind goes stale
	// by its ttlMs; 0 when none will (see freshness.go).
	staleAt [numLists]atomic.Int64
}

// New returns a manager for the servers of set: the definitions in
// effect (set.Servers), and every definition that claimed a name but is
// invalid (from set.Problems), which is listed as failed with its
// problems and never started. The servers of untrusted project files
// (set.Untrusted, and those marked Source.Untrusted unless
// Options.StartUntrusted) are listed with StateUntrusted and never
// started. Shadowed definitions are ignored. New starts nothing: call
// Start, or Connect for single servers.
func New(set *config.Set, opts *Options) *Manager {
	m := newManager(opts)
	if set == nil {
		return m
	}
	for _, c := range set.Servers {
		m.add(c)
	}
	for _, in := range set.Untrusted {
		for _, c := range in.Servers {
			m.addUntrusted(c)
		}
	}
	m.addInvalid(set.Problems)
	m.sortByFiles(set.Files)
	return m
}

// sortByFiles puts the servers in discovery order (file, then line), so
// invalid definitions stand where they were written.
func (m *Manager) sortByFiles(files []string) {
	rank := make(map[string]int, len(files))
	for i, f := range files {
		rank[f] = i
	}
	key := func(s *server) int {
		r, ok := rank[s.source.File]
		if !ok {
			r = len(files)
		}
		return r
	}
	slices.SortStableFunc(m.servers, func(a, b *server) int {
		return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a.source.Line, b.source.Line))
	})
}

// NewServers is New for definitions not read by config.Load. A nil entry
// is skipped; of two definitions with the same name the first counts.
func NewServers(servers []*config.Server, opts *Options) *Manager {
	m := newManager(opts)
	for _, c := range servers {
		m.add(c)
	}
	return m
}

func newManager(opts *Options) *Manager {
	m := &Manager{opts: opts.resolved(), byName: make(map[string]*server)}
	m.hub.limit, m.hub.limitBytes = m.opts.EventQueue, m.opts.EventQueueBytes
	if !m.opts.DisableCache {
		m.cache = &toolCache{dir: m.opts.CacheDir, ttl: m.opts.CacheTTL}
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m
}

func (m *Manager) add(c *config.Server) {
	if c == nil || m.byName[c.Name] != nil {
		return
	}
	if c.Source.Untrusted && !m.opts.StartUntrusted {
		m.addUntrusted(c)
		return
	}
	s := newServer(m, c.Name)
	s.cfg = c
	s.source = c.Source
	s.key = cacheKey(c)
	switch {
	case !c.Enabled:
		s.state = StateDisabled
	case c.Lazy:
		s.state = StateLazy
	}
	m.servers = append(m.servers, s)
	m.byName[c.Name] = s
}

// addUntrusted lists a server of an untrusted project file, which never
// starts: it keeps no definition to start it from.
func (m *Manager) addUntrusted(c *config.Server) {
	if c == nil || m.byName[c.Name] != nil {
		return
	}
	s := newServer(m, c.Name)
	s.source = c.Source
	s.kind = c.Type
	s.untrusted = &UntrustedError{File: c.Source.File}
	s.state = StateUntrusted
	s.err = s.untrusted
	m.servers = append(m.servers, s)
	m.byName[c.Name] = s
}

// addInvalid lists the servers whose definition claimed a name but did not
// load: their problems (errors, not warnings) from the file that claimed
// the name, which is the first to name it.
func (m *Manager) addInvalid(problems []config.Problem) {
	claim := make(map[string]string) // name -> file
	var order []string
	byName := make(map[string][]error)
	first := make(map[string]config.Problem)
	for _, p := range problems {
		if p.Warning || p.Server == "" || m.byName[p.Server] != nil {
			continue
		}
		f, ok := claim[p.Server]
		if !ok {
			claim[p.Server] = p.File
			order = append(order, p.Server)
			first[p.Server] = p
		} else if f != p.File {
			continue
		}
		byName[p.Server] = append(byName[p.Server], p)
	}
	for _, name := range order {
		s := newServer(m, name)
		p := first[name]
		s.source = config.Source{File: p.File, Line: p.Line}
		s.invalid = errors.Join(byName[name]...)
		s.state = StateFailed
		s.err = fmt.Errorf("%w: %w", ErrInvalidConfig, s.invalid)
		m.servers = append(m.servers, s)
		m.byName[name] = s
	}
}

// Subscribe registers fn for every event of every server. Each subscriber
// gets its events in order on a goroutine of its own, so a slow fn delays
// only its own later events and never the servers, the manager or another
// subscriber.
//
// Events wait for a slow fn in a queue of Options.EventQueue events and
// Options.EventQueueBytes bytes (1024 and 8 MiB by default). When it is
// full, its oldest Notification or Warning event is dropped to make room,
// and fn next gets a Dropped event (Server "") with the count, before the
// events still queued. State changes are never dropped; they come at a
// pace the manager sets, so they are few. A server's own connection drops
// notifications too when the callbacks that take them (the manager's,
// then Options.Client's) fall behind: that shows as a Dropped event
// with the server's name (see mcp.ClientOptions.NotificationQueue).
//
// After unsubscribe returns, fn is not called again except for a call
// already under way, which Close waits for like any other. Close drops the queued notifications and warnings,
// delivers the queued state changes (ending with each server's Closed)
// within 5 s, and returns; after it returns no callback starts, and only
// a callback that has not returned within those 5 s may still be running
// (Close's error says so). fn must not call Close.
func (m *Manager) Subscribe(fn func(Event)) (unsubscribe func()) {
	if fn == nil {
		return func() {}
	}
	return m.hub.subscribe(fn)
}

// Start connects every enabled, non-lazy server in parallel and returns
// after the startup gate (Options.StartupGate) or as soon as every one of
// them has connected or failed its first attempt, whichever comes first.
// The snapshot then has live tools for connected servers, cached tools
// for servers still connecting, and errors for failed ones. Connecting
// goes on in the background; watch events or call WaitSettled.
//
// ctx bounds only the wait: when it ends first, Start returns the
// snapshot of that moment with ctx's error. Connections live until Close.
func (m *Manager) Start(ctx context.Context) (*Snapshot, error) {
	m.mu.Lock()
	switch {
	case m.closed:
		m.mu.Unlock()
		return nil, &Error{Op: "start", Err: ErrShutdown}
	case m.started:
		m.mu.Unlock()
		return nil, &Error{Op: "start", Err: errors.New("manager: already started")}
	}
	m.started = true
	m.mu.Unlock()

	for _, s := range m.servers {
		s.loadCache()
	}
	m.tableChanged()
	var settled []<-chan struct{}
	for _, s := range m.servers {
		if s.autoStart() {
			ch, err := s.start(false)
			if err != nil {
				return nil, &Error{Op: "start", Err: err}
			}
			settled = append(settled, ch)
		}
	}
	if m.opts.StartupGate > 0 {
		gate := time.NewTimer(m.opts.StartupGate)
		defer gate.Stop()
	wait:
		for _, ch := range settled {
			select {
			case <-ch:
			case <-gate.C:
				break wait
			case <-ctx.Done():
				return m.Snapshot(), &Error{Op: "start", Err: ctx.Err()}
			case <-m.ctx.Done():
				return m.Snapshot(), &Error{Op: "start", Err: ErrShutdown}
			}
		}
	}
	return m.Snapshot(), nil
}

// WaitSettled waits until every started server has connected or failed
// its first attempt since it was started (Start, Connect or a call), or
// until ctx ends, and returns the snapshot of that moment.
func (m *Manager) WaitSettled(ctx context.Context) (*Snapshot, error) {
	for _, ch := range m.settling() {
		select {
		case <-ch:
		case <-ctx.Done():
			return m.Snapshot(), &Error{Op: "wait for servers", Err: ctx.Err()}
		case <-m.ctx.Done():
			return m.Snapshot(), &Error{Op: "wait for servers", Err: ErrShutdown}
		}
	}
	return m.Snapshot(), nil
}

// settling returns the settled channels of the servers still on their
// first attempt.
func (m *Manager) settling() []<-chan struct{} {
	var out []<-chan struct{}
	for _, s := range m.servers {
		s.mu.Lock()
		if s.settled != nil {
			select {
			case <-s.settled:
			default:
				out = append(out, s.settled)
			}
		}
		s.mu.Unlock()
	}
	return out
}

// Snapshot returns the tools and the servers' statuses of this moment.
func (m *Manager) Snapshot() *Snapshot {
	return &Snapshot{Tools: m.Tools(), Servers: m.Servers()}
}

// Servers returns the status of every server, in config order.
func (m *Manager) Servers() []ServerStatus {
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s.status())
	}
	return out
}

// Server returns the status of the named server.
func (m *Manager) Server(name string) (ServerStatus, bool) {
	s := m.byName[name]
	if s == nil {
		return ServerStatus{}, false
	}
	return s.status(), true
}

// Tools returns every tool a model may call, in server config order and
// then in each server's own order, with model-facing names. A connected
// server contributes its live tools; one that is not connected, its
// cached or last known tools (Cached set). The slice and its entries
// share memory with the manager, and calls between which no server's
// tools changed return the same slice: do not modify them.
func (m *Manager) Tools() []ToolEntry {
	m.refreshStale(toolList)
	return m.currentTable().entries()
}

// Prompts returns the prompts of the servers that listed them, as last
// listed. A list whose ttlMs (2026-07-28) has passed is listed again in
// the background; this call returns it as it was.
func (m *Manager) Prompts() []PromptEntry {
	m.refreshStale(promptList)
	var out []PromptEntry
	for _, s := range m.servers {
		s.mu.Lock()
		for _, p := range s.prompts {
			out = append(out, PromptEntry{Server: s.name, Prompt: p})
		}
		s.mu.Unlock()
	}
	return out
}

// Resources returns the resources of the servers that listed them, as
// last listed, and refreshes stale lists as Prompts does.
func (m *Manager) Resources() []ResourceEntry {
	m.refreshStale(resourceList)
	var out []ResourceEntry
	for _, s := range m.servers {
		s.mu.Lock()
		for _, r := range s.resources {
			out = append(out, ResourceEntry{Server: s.name, Resource: r})
		}
		s.mu.Unlock()
	}
	return out
}

// Close stops every server and everything the manager started. At once,
// it makes calls and waits for servers (CallTool, Connect, WaitSettled,
// Start) return ErrShutdown, including calls cut off in flight, and drops
// the notifications and warnings queued for subscribers. Then it closes
// the connections (each close is bounded), ends the supervisors, emits
// Closed for every server that was not disabled, lets subscribers take
// the state changes queued (see Subscribe) and returns. Later calls fail
// with ErrShutdown. Close is idempotent; a second call waits for the first.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		done := m.closeDone
		m.mu.Unlock()
		if done != nil {
			<-done
		}
		return m.closeErr
	}
	m.closed = true
	m.closeDone = make(chan struct{})
	m.mu.Unlock()

	m.cancel()
	m.hub.quiesce()
	m.wg.Wait()
	for _, s := range m.servers {
		s.stopped()
	}
	m.tableChanged()
	if err := m.hub.close(); err != nil {
		m.closeErr = &Error{Op: "close", Err: err}
	}
	close(m.closeDone)
	return m.closeErr
}

// isClosed reports whether Close has begun.
func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}
