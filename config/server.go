package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"time"
)

// Normalized transport types of a Server. Hosts spell them many ways;
// Server.Type is always one of these.
const (
	// TypeStdio: a child process speaking JSON lines on stdin/stdout.
	TypeStdio = "stdio"
	// TypeHTTP: Streamable HTTP at Server.URL.
	TypeHTTP = "http"
	// TypeSSE: the legacy HTTP+SSE transport at Server.URL.
	TypeSSE = "sse"
	// TypeAuto: a URL given without a type. Try Streamable HTTP first and
	// fall back to legacy SSE, as the MCP specification advises clients
	// that must talk to both.
	TypeAuto = "auto"
)

// Format names a config file layout.
type Format string

const (
	// FormatAuto picks the format from the file name (DetectFormat).
	FormatAuto Format = ""
	// FormatMCPWire is mcpwire.json: {"servers": {...}} or
	// {"mcpServers": {...}}, with optional VS Code style "inputs".
	FormatMCPWire Format = "mcpwire"
	// FormatMCPServers is {"mcpServers": {...}}, as Claude Code (.mcp.json),
	// Cursor (.cursor/mcp.json) and Windsurf (mcp_config.json) write it.
	FormatMCPServers Format = "mcpServers"
	// FormatVSCode is VS Code's .vscode/mcp.json: {"servers": {...},
	// "inputs": [...]}.
	FormatVSCode Format = "vscode"
	// FormatClaude is Claude Code's ~/.claude.json: user servers under the
	// top-level "mcpServers", and local (per project) servers under
	// "projects"[<absolute project dir>]."mcpServers".
	FormatClaude Format = "claude"
	// FormatClaudeDesktop is Claude Desktop's claude_desktop_config.json:
	// {"mcpServers": {...}} among the app's other settings.
	FormatClaudeDesktop Format = "claudeDesktop"
	// FormatGemini is Gemini CLI's settings.json (~/.gemini and the
	// project's .gemini): "mcpServers" among other settings. There "url"
	// is legacy SSE and "httpUrl" Streamable HTTP, "includeTools" and
	// "excludeTools" filter tools, and $VAR is a reference as ${VAR} is.
	FormatGemini Format = "gemini"
	// FormatZed is Zed's settings.json: servers under "context_servers",
	// with "command" either a string (with "args" and "env" beside it) or
	// an object {"path", "args", "env"}, or a "url".
	FormatZed Format = "zed"
	// FormatCodex is Codex's config.toml: TOML tables
	// [mcp_servers.NAME]. Codex takes values literally, so no ${VAR} is
	// expanded; environment variables come in by name (env_vars,
	// env_http_headers, bearer_token_env_var).
	FormatCodex Format = "codex"
)

// Source says where a Server was defined.
type Source struct {
	File   string // the config file, as given or discovered
	Format Format
	// Scope is ScopeProject, ScopeUser or ScopeExplicit (a file named in
	// LoadOptions.Files); empty when the server came from Parse.
	Scope string
	// Untrusted marks a definition from a project file the user has not
	// approved (see Trusted). Such a server must not be started or
	// connected unless the caller decided to run unapproved project
	// servers (manager.Options.StartUntrusted).
	Untrusted bool
	// Section is the JSON path of the map that holds the definition:
	// "mcpServers", "servers", or `projects["/abs/dir"].mcpServers`.
	Section string
	Line    int // 1-based line of the server's name in File
}

func (s Source) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return s.File
}

// Server is one validated, expanded server definition.
//
// It holds secrets (Env and Headers values, URL credentials) in clear, as
// a transport needs them; String prints none of them, so a Server can go
// into a log line with %v.
type Server struct {
	Name string
	// Type is TypeStdio, TypeHTTP, TypeSSE or TypeAuto.
	Type string

	// Stdio servers.
	Command string
	Args    []string
	Env     map[string]string // added to the child's environment
	// Cwd is the child's working directory. A relative cwd in the file is
	// made absolute against LoadOptions.Dir; empty means the caller
	// chooses (normally the project directory).
	Cwd string
	// InheritEnv: the child gets the whole parent environment
	// (envPolicy "inherit") instead of the safe allow-list (the default,
	// envPolicy "allowlist").
	InheritEnv bool

	// HTTP servers.
	URL     string
	Headers map[string]string
	// BearerTokenEnvVar names the environment variable whose value is
	// the bearer token (Codex's bearer_token_env_var). Load has already
	// put "Authorization: Bearer <value>" into Headers; the name is kept
	// for display and so a caller can mask that value in its output.
	BearerTokenEnvVar string

	// Timeout is the per-request timeout (Codex's tool_timeout_sec,
	// Gemini CLI's and mcpwire's timeout); meaningful only if TimeoutSet.
	// Zero with TimeoutSet means no timeout.
	Timeout    time.Duration
	TimeoutSet bool
	// StartupTimeout bounds starting the server and the initialize
	// handshake (Codex's startup_timeout_sec); zero means the caller's
	// default.
	StartupTimeout time.Duration

	// MaxMessageSize is the largest message accepted from the server, in
	// bytes ("maxMessageSize", mcpwire's own key): a stdio line, an HTTP
	// reply body or one SSE event. Zero means the transport's default (no
	// limit on stdio, 32 MiB over HTTP); -1 means no limit.
	MaxMessageSize int64

	// ProtocolVersion pins the MCP revision spoken to the server
	// ("protocolVersion", mcpwire's own key, as --protocol is for one
	// server): "" or "auto" negotiates; a date such as "2025-11-25" or
	// "2026-07-28" pins that revision. Load checks only that it is
	// written as a revision; the client refuses one it does not speak.
	ProtocolVersion string

	// Enabled is false when the file says "enabled": false or
	// "disabled": true. A disabled server still claims its name, so an
	// earlier file can switch off a later one's server of the same name
	// (but a project's never hides a user's: see Load).
	Enabled bool
	// Lazy asks the manager to connect on first use, not at start.
	Lazy bool
	// EnabledTools and DisabledTools filter tools by exact name or
	// path.Match glob; see ToolAllowed.
	EnabledTools  []string
	DisabledTools []string

	// OAuth is the "oauth" object as written, unexpanded, for the
	// authorization layer (clientId, clientSecret, scopes, callbackPort).
	OAuth json.RawMessage

	Source Source
	// Vars are the environment variables the definition reads, sorted:
	// its ${VAR} references (with those of their defaults), the
	// MCPWIRE_INPUT_* variable of each ${input:id}, and Codex's variables
	// named by env_vars, env_http_headers and bearer_token_env_var. For a
	// server of an untrusted file (Set.Untrusted) none was read, and the
	// list also holds what its oauth block would read at sign-in (its
	// ${VAR}s, workloadIdentity.tokenEnv, enterprise.idTokenEnv).
	Vars []string
	// Raw is the definition before expansion, as canonical JSON (sorted
	// keys, no insignificant space). It holds ${VAR} references, not their
	// values, and any secret written literally in the file.
	Raw json.RawMessage
}

// ToolAllowed reports whether the tool name passes the server's filters:
// a name matching any DisabledTools pattern is refused; otherwise, if
// EnabledTools is non-empty, the name must match one of its patterns.
// Patterns use path.Match syntax ("*" does not match "/"); their syntax is
// checked when the config is loaded.
func (s *Server) ToolAllowed(name string) bool {
	for _, p := range s.DisabledTools {
		if toolMatch(p, name) {
			return false
		}
	}
	if len(s.EnabledTools) == 0 {
		return true
	}
	for _, p := range s.EnabledTools {
		if toolMatch(p, name) {
			return true
		}
	}
	return false
}

func toolMatch(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return ok || (err != nil && pattern == name)
}

// CacheKey identifies the definition for caches (the manager's tool
// cache): the hex SHA-256 of the name and the canonical unexpanded
// definition. A secret rotated in the environment keeps the key; a
// changed command, argument, URL or field changes it. Two projects with
// the same definition text share a key, even if ${workspaceFolder} makes
// them run different things.
func (s *Server) CacheKey() string {
	h := sha256.New()
	h.Write([]byte(s.Name))
	h.Write([]byte{0})
	h.Write(s.Raw)
	return hex.EncodeToString(h.Sum(nil))
}

// String names the server, its type and where it came from; never a
// secret.
func (s *Server) String() string {
	return fmt.Sprintf("%s (%s, %s)", s.Name, s.Type, s.Source)
}
