package inspect

import (
	"context"
	"errors"
	"fmt"
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
	// Target is how "mcpwire call" reaches this server in a copied
	// command: none for a configured server (named NAME/TOOL), else the
	// URL or "--", COMMAND, ARGS. Options.Redact masks its secrets.
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
			ss.Error = st.Err.Error()
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
// tail (nil: none).
func OneServer(name, transport string, target []string, c *mcp.Client, stderr func() string) Servers {
	return &oneServer{st: ServerState{Name: name, Transport: transport, Target: target}, c: c, stderr: stderr}
}

type oneServer struct {
	st     ServerState
	c      *mcp.Client
	stderr func() string
}

func (s *oneServer) List() []ServerState {
	st := s.st
	st.State = string(manager.StateConnected)
	select {
	case <-s.c.Done():
		st.State = string(manager.StateStopped)
		if err := s.c.Err(); err != nil {
			st.Error = err.Error()
		}
	default:
	}
	return []ServerState{st}
}

var errNoServer = errors.New("no such server")

func (s *oneServer) Client(_ context.Context, name string) (*mcp.Client, error) {
	if name != s.st.Name {
		return nil, fmt.Errorf("%w: %q", errNoServer, name)
	}
	return s.c, nil
}

func (s *oneServer) Stderr(string) string {
	if s.stderr == nil {
		return ""
	}
	return s.stderr()
}

func (s *oneServer) Watch(changed func()) func() {
	stop := make(chan struct{})
	var once sync.Once
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-s.c.Done():
			changed()
		case <-stop:
		}
	}()
	return func() {
		once.Do(func() { close(stop) })
		<-done
	}
}
