package manager

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// pipeServer is a definition the fleet's Dial connects in process. Raw
// differs per name, as it would in a file.
func pipeServer(name string) *config.Server {
	raw, _ := json.Marshal(map[string]string{"command": "in-process", "name": name})
	return &config.Server{Name: name, Type: config.TypeStdio, Command: "in-process", Enabled: true, Raw: raw}
}

// stdioServer is a definition that starts this test binary as a real
// mcptest child process with the given faults.
func stdioServer(name string, faults ...string) *config.Server {
	child := mcptest.ChildCommand(faults...)
	env := maps.Clone(child.Env)
	raw, _ := json.Marshal(map[string]any{"command": child.Path, "env": env, "name": name})
	return &config.Server{Name: name, Type: config.TypeStdio, Command: child.Path, Args: child.Args, Env: env, Enabled: true, Raw: raw}
}

// fleet serves in-process mcptest servers through Options.Dial, with a
// per-server connect delay (virtual time under synctest), failures and
// dial counts.
type fleet struct {
	mu      sync.Mutex
	servers map[string]*mcptest.Server
	delay   map[string]time.Duration
	fail    map[string]error
	block   map[string]bool // dial waits for its ctx
	// stubborn makes dial take that long whatever its ctx, as a child
	// that is slow to stop keeps Close waiting.
	stubborn map[string]time.Duration
	dials    map[string]int
}

func newFleet() *fleet {
	return &fleet{
		servers:  make(map[string]*mcptest.Server),
		delay:    make(map[string]time.Duration),
		fail:     make(map[string]error),
		block:    make(map[string]bool),
		stubborn: make(map[string]time.Duration),
		dials:    make(map[string]int),
	}
}

// add registers an mcptest server under name (NewDefault when srv is nil)
// and returns it; the test closes it with f.close. The default server
// speaks only the legacy era, whose supervision (server→client requests,
// notifications at any time) these tests exercise; the client reaches it
// through the era negotiation's fallback.
func (f *fleet) add(name string, srv *mcptest.Server) *mcptest.Server {
	if srv == nil {
		srv = mcptest.NewDefault(&mcptest.Options{Name: name, Eras: mcptest.LegacyOnly})
	}
	f.mu.Lock()
	f.servers[name] = srv
	f.mu.Unlock()
	return srv
}

func (f *fleet) set(fn func(f *fleet)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

func (f *fleet) dialCount(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dials[name]
}

func (f *fleet) dial(ctx context.Context, s *config.Server) (transport.Transport, error) {
	f.mu.Lock()
	f.dials[s.Name]++
	srv, d, failErr, block := f.servers[s.Name], f.delay[s.Name], f.fail[s.Name], f.block[s.Name]
	stubborn := f.stubborn[s.Name]
	f.mu.Unlock()
	time.Sleep(stubborn)
	if block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if failErr != nil {
		return nil, failErr
	}
	if srv == nil {
		return nil, fmt.Errorf("fleet has no server %q", s.Name)
	}
	return srv.Transport(), nil
}

// close closes every server; call it after the manager's Close.
func (f *fleet) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.servers {
		s.Close()
	}
}

// eventLog records a manager's events and lets a test wait for them.
type eventLog struct {
	mu     sync.Mutex
	events []Event
	more   chan struct{} // closed and replaced on every event
	stop   func()
}

func record(m *Manager) *eventLog {
	l := &eventLog{more: make(chan struct{})}
	l.stop = m.Subscribe(l.add)
	return l
}

// Close unsubscribes the log; it keeps what it recorded.
func (l *eventLog) Close() { l.stop() }

func (l *eventLog) add(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
	close(l.more)
	l.more = make(chan struct{})
}

// count counts the events of server (any when "") of kind.
func (l *eventLog) count(server string, kind EventKind) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.events {
		if e.Kind == kind && (server == "" || e.Server == server) {
			n++
		}
	}
	return n
}

func (l *eventLog) list(server string) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Event
	for _, e := range l.events {
		if server == "" || e.Server == server {
			out = append(out, e)
		}
	}
	return out
}

// waitFor waits until server has had n events of kind and returns the
// n-th. It gives up after a minute (of virtual time in synctest bubbles,
// a generous real-time limit outside them), so a bug fails the test
// instead of hanging it.
func (l *eventLog) waitFor(t *testing.T, server string, kind EventKind, n int) Event {
	t.Helper()
	return l.waitWithin(t, time.Minute, server, kind, n)
}

// waitWithin is waitFor with its own limit.
func (l *eventLog) waitWithin(t *testing.T, limit time.Duration, server string, kind EventKind, n int) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	for {
		l.mu.Lock()
		seen := 0
		for _, e := range l.events {
			if e.Kind == kind && (server == "" || e.Server == server) {
				seen++
				if seen == n {
					l.mu.Unlock()
					return e
				}
			}
		}
		more := l.more
		l.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			t.Fatalf("no %d %s event(s) for %q; events:\n%s", n, kind, server, l)
			return Event{}
		}
	}
}

func (l *eventLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, e := range l.events {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	return b.String()
}

// text returns the text of a tool result's first block.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res == nil || len(res.Content) == 0 {
		t.Fatalf("result has no content: %+v", res)
	}
	return res.Content[0].Text
}

// managerError checks err is an *Error about server wrapping target.
func managerError(t *testing.T, err error, server string, target error) {
	t.Helper()
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("error %v (%T) is not a *manager.Error", err, err)
	}
	if me.Server != server {
		t.Errorf("Error.Server = %q, want %q (error: %v)", me.Server, server, err)
	}
	if target != nil && !errors.Is(err, target) {
		t.Errorf("error %v does not wrap %v", err, target)
	}
}

// toolNames lists the model-facing names of a snapshot's tools.
func toolNames(tools []ToolEntry) []string {
	var out []string
	for _, e := range tools {
		out = append(out, e.Name)
	}
	return out
}

var mcpCallTimeout2s = mcp.CallOptions{Timeout: 2 * time.Second}

// echoHandler answers with the message argument.
func echoHandler(_ context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
	var args struct{ Message string }
	if err := req.Bind(&args); err != nil {
		return nil, err
	}
	return &mcptest.ToolResult{Content: []mcptest.Content{mcptest.TextContent(args.Message)}}, nil
}

func hasMCPTool(tools []mcp.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

var errTest = errors.New("test failure")
