package inspect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// ServerState is what the page shows of a server before asking it
// anything.
type ServerState struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// State is the manager's state ("connected", "failed", ...).
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	// NeedsSignIn: the server wants an OAuth sign-in (its connection
	// failed on an authorization challenge nobody could answer).
	NeedsSignIn bool `json:"needsSignIn,omitempty"`
	// Target is how "mcpwire call" reaches this server in a copied
	// command: none for a configured server (named NAME/TOOL), else the
	// target's flags, then the URL or "--", COMMAND, ARGS.
	// Options.Redact masks its secrets, word by word. An --env flag is
	// followed by the variable's NAME alone, never its value: the copied
	// command has --env "NAME=$NAME", for the shell that runs it to fill
	// in.
	Target []string `json:"-"`
}

// Servers are the servers the page works on.
type Servers interface {
	// List returns every server, in a stable order.
	List() []ServerState
	// Client returns server name's connected client.
	Client(ctx context.Context, name string) (*mcp.Client, error)
	// Stderr returns the tail of a stdio server's stderr ("" if none).
	Stderr(name string) string
	// Watch calls changed (from any goroutine) whenever a server's state
	// may have changed, until stop is called.
	Watch(changed func()) (stop func())
}

// Reconnecter is Servers that can end a server's connection and connect
// it again (the page's reconnect button): ManagerServers, and OneServer
// given a connect function.
type Reconnecter interface {
	Reconnect(ctx context.Context, name string) error
}

// ManagerServers are the servers of m, or only the one named only when
// that is not "". stderr, when not nil, gives a server's stderr tail.
func ManagerServers(m *manager.Manager, only string, stderr func(name string) string) Servers {
	return &managerServers{m: m, only: only, stderr: stderr}
}

type managerServers struct {
	m      *manager.Manager
	only   string
	stderr func(string) string
}

func (s *managerServers) List() []ServerState {
	var out []ServerState
	for _, st := range s.m.Servers() {
		if s.only != "" && st.Name != s.only {
			continue
		}
		ss := ServerState{Name: st.Name, Transport: st.Transport, State: string(st.State)}
		if st.Err != nil {
			ss.Error, ss.NeedsSignIn = st.Err.Error(), NeedsSignIn(st.Err)
		}
		out = append(out, ss)
	}
	return out
}

func (s *managerServers) Client(ctx context.Context, name string) (*mcp.Client, error) {
	if s.only != "" && name != s.only {
		return nil, fmt.Errorf("%w: %q", errNoServer, name)
	}
	return s.m.Client(ctx, name)
}

// Reconnect ends a connected server's connection and connects it again
// through the manager (Manager.Reconnect: a person's reconnect is no
// crash, so it never opens the breaker), and waits for that attempt; a
// server that is not connected (failed, lazy, breaker open) is started as
// Manager.Connect does.
func (s *managerServers) Reconnect(ctx context.Context, name string) error {
	if s.only != "" && name != s.only {
		return fmt.Errorf("%w: %q", errNoServer, name)
	}
	return s.m.Reconnect(ctx, name)
}

func (s *managerServers) Stderr(name string) string {
	if s.stderr == nil {
		return ""
	}
	return s.stderr(name)
}

// warnings tells of each server's Warning events (problems its client
// met outside any call) until stop is called.
func (s *managerServers) warnings(warn func(server string, err error)) (stop func()) {
	return s.m.Subscribe(func(e manager.Event) {
		if e.Kind == manager.Warning && e.Err != nil && (s.only == "" || e.Server == s.only) {
			warn(e.Server, e.Err)
		}
	})
}

func (s *managerServers) Watch(changed func()) func() {
	return s.m.Subscribe(func(e manager.Event) {
		if e.Kind != manager.Notification {
			changed()
		}
	})
}

// OneServer is a single connected client, named name; target is how a
// copied command reaches it (see ServerState.Target), stderr its stderr
// tail (nil: none). connect, when not nil, makes a new client for the
// page's reconnect, after the current one is closed: the page never runs
// two clients of the server at once.
func OneServer(name, transport string, target []string, c *mcp.Client, stderr func() string, connect func(context.Context) (*mcp.Client, error)) Servers {
	return &oneServer{st: ServerState{Name: name, Transport: transport, Target: target}, c: c, stderr: stderr,
		connect: connect, swapped: make(chan struct{})}
}

// FailedServer is OneServer for a target whose first connection failed
// with err (one that wants a sign-in, say): the page shows it failed and
// why, and its reconnect or sign-in connects it with connect.
func FailedServer(name, transport string, target []string, err error, stderr func() string, connect func(context.Context) (*mcp.Client, error)) Servers {
	s := OneServer(name, transport, target, nil, stderr, connect).(*oneServer)
	s.failed = err
	return s
}

// closedDone stands for the end of a client that never connected.
var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// doneOf is c.Done(), closed for no client.
func doneOf(c *mcp.Client) <-chan struct{} {
	if c == nil {
		return closedDone
	}
	return c.Done()
}

type oneServer struct {
	st      ServerState
	stderr  func() string
	connect func(context.Context) (*mcp.Client, error)

	turn sync.Mutex // one reconnect at a time

	mu         sync.Mutex
	c          *mcp.Client
	connecting bool
	failed     error         // the last reconnect's failure
	swapped    chan struct{} // closed (and replaced) when a reconnect ends
}

func (s *oneServer) current() (*mcp.Client, bool, error, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c, s.connecting, s.failed, s.swapped
}

func (s *oneServer) List() []ServerState {
	st := s.st
	c, connecting, failed, _ := s.current()
	st.State = string(manager.StateConnected)
	select {
	case <-doneOf(c):
		st.State = string(manager.StateStopped)
		if c == nil {
			st.State = string(manager.StateFailed)
		} else if err := c.Err(); err != nil {
			st.Error, st.NeedsSignIn = err.Error(), NeedsSignIn(err)
		}
		if failed != nil {
			st.State, st.Error, st.NeedsSignIn = string(manager.StateFailed), failed.Error(), NeedsSignIn(failed)
		}
	default:
	}
	if connecting {
		st.State, st.Error = string(manager.StateConnecting), ""
	}
	return []ServerState{st}
}

var errNoServer = errors.New("no such server")

func (s *oneServer) Client(_ context.Context, name string) (*mcp.Client, error) {
	if name != s.st.Name {
		return nil, fmt.Errorf("%w: %q", errNoServer, name)
	}
	c, connecting, failed, _ := s.current()
	if connecting {
		// Not a failure: asked again in a moment, it answers.
		return nil, withStatus(http.StatusServiceUnavailable, fmt.Errorf("%q is reconnecting", name))
	}
	if c == nil {
		return nil, fmt.Errorf("%q is not connected: %w", name, failed)
	}
	return c, nil
}

// Reconnect closes the client (a stdio child ends) and connects anew.
// Should that fail, the server shows as failed with the reason until the
// next reconnect.
func (s *oneServer) Reconnect(ctx context.Context, name string) error {
	if name != s.st.Name {
		return fmt.Errorf("%w: %q", errNoServer, name)
	}
	if s.connect == nil {
		return withStatus(http.StatusNotImplemented, fmt.Errorf("%q cannot be reconnected from the page", name))
	}
	s.turn.Lock()
	defer s.turn.Unlock()
	s.mu.Lock()
	old := s.c
	s.connecting = true
	s.mu.Unlock()
	if old != nil {
		_ = old.Close() // Watch tells the page: it now shows "connecting"
	}
	c, err := s.connect(ctx)
	s.mu.Lock()
	s.connecting, s.failed = false, err
	if err == nil {
		s.c = c
	}
	close(s.swapped)
	s.swapped = make(chan struct{})
	s.mu.Unlock()
	return err
}

func (s *oneServer) Stderr(string) string {
	if s.stderr == nil {
		return ""
	}
	return s.stderr()
}

// Watch tells of the client ending and of each reconnect's outcome.
func (s *oneServer) Watch(changed func()) func() {
	stop := make(chan struct{})
	var once sync.Once
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, _, _, swapped := s.current()
			select {
			case <-doneOf(c):
				changed()
				select { // nothing more until a reconnect ends
				case <-swapped:
				case <-stop:
					return
				}
			case <-swapped:
			case <-stop:
				return
			}
			changed()
		}
	}()
	return func() {
		once.Do(func() { close(stop) })
		<-done
	}
}
