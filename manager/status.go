package manager

import (
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
)

// State is where a server stands.
type State string

// The states of a server.
const (
	// StateIdle: enabled but not started yet (before Start, or not
	// reached by Connect or a call).
	StateIdle State = "idle"
	// StateLazy: configured "lazy": connects on first use.
	StateLazy State = "lazy"
	// StateDisabled: "enabled": false in its config; never started.
	StateDisabled State = "disabled"
	// StateUntrusted: defined in a project config file the user has not
	// approved; never started. Err is an *UntrustedError.
	StateUntrusted State = "untrusted"
	// StateConnecting: the first attempt is under way.
	StateConnecting State = "connecting"
	// StateRetrying: the server has not connected since it was started,
	// and a later attempt is under way (ServerStatus.Attempt numbers it,
	// ServerStatus.Err is the last failure).
	StateRetrying State = "retrying"
	// StateConnected: connected, tools listed.
	StateConnected State = "connected"
	// StateReconnecting: the server was connected before and the
	// connection ended; an attempt is under way (or, after the connection
	// ended, waits for its backoff).
	StateReconnecting State = "reconnecting"
	// StateFailed: the last attempt failed (Err) and the next waits for
	// its backoff; or, with ErrInvalidConfig, the definition is broken and
	// the server never starts.
	StateFailed State = "failed"
	// StateBreakerOpen: too many failures in a row; automatic restarts
	// stopped until Connect. Err is a *BreakerError.
	StateBreakerOpen State = "breaker-open"
	// StateStopped: the manager was closed.
	StateStopped State = "stopped"
)

// ServerStatus describes one server.
type ServerStatus struct {
	Name string
	// Transport is the config's type: stdio, http, sse or auto ("" when
	// the definition is invalid).
	Transport string
	State     State
	// ToolCount counts the tools Tools() lists for the server, live or
	// cached, after filtering.
	ToolCount int
	// ToolsCached: the tools come from the cache or from a connection
	// that has since ended, not from a live one.
	ToolsCached bool
	// Err is the last failure (nil when connected): a failed attempt, the
	// reason the connection ended, or the config problems of an invalid
	// definition.
	Err error
	// Attempt numbers the connection attempt under way, or the last one,
	// since the server was started (0 before the first).
	Attempt int
	// ServerInfo is what the server said about itself when it last
	// connected.
	ServerInfo mcp.Implementation
	Source     config.Source
}

// ToolEntry is one tool as a model sees it.
type ToolEntry struct {
	// Name is the model-facing name (see ToolName), unique in the manager.
	Name string
	// Server is the server's name; Tool.Name is the tool's own name there.
	Server string
	Tool   mcp.Tool
	// Cached: the server is not connected; the entry comes from the cache
	// or from an earlier connection, and calling it waits for the server.
	Cached bool
}

// PromptEntry is one prompt of a connected server.
type PromptEntry struct {
	Server string
	Prompt mcp.Prompt
}

// ResourceEntry is one resource of a connected server.
type ResourceEntry struct {
	Server   string
	Resource mcp.Resource
}

// Snapshot is the manager's view at one moment.
type Snapshot struct {
	Tools   []ToolEntry // shared with the manager, as Manager.Tools says
	Servers []ServerStatus
}

// Server returns the status of the named server, or nil.
func (s *Snapshot) Server(name string) *ServerStatus {
	for i := range s.Servers {
		if s.Servers[i].Name == name {
			return &s.Servers[i]
		}
	}
	return nil
}
