// Package config reads MCP server definitions from the config files that
// coding agents already use, and from mcpwire's own, and turns them into
// validated Server values with variables expanded. It knows nothing of
// transports or MCP: the manager maps a Server onto a transport.
//
// # Files and formats
//
// Load looks in the project directory, then in the user's directories
// (see Locations for the exact list and order):
//
//   - mcpwire.json, mcpwire's own: {"servers": {...}} or
//     {"mcpServers": {...}} (either key; if both are present both load),
//     and optionally VS Code style "inputs".
//   - {"mcpServers": {...}} as Claude Code (.mcp.json), Cursor
//     (.cursor/mcp.json) and Windsurf (~/.codeium/windsurf/mcp_config.json)
//     write it.
//   - VS Code's .vscode/mcp.json: {"servers": {...}, "inputs": [...]}.
//   - Claude Code's ~/.claude.json: the entry for this project
//     (projects[<absolute Dir>].mcpServers, Claude's "local" scope) and
//     then the user-level top-level "mcpServers".
//   - Gemini CLI's .gemini/settings.json (project) and
//     ~/.gemini/settings.json: "mcpServers", where "url" is legacy SSE,
//     "httpUrl" Streamable HTTP, and $VAR is read as ${VAR}.
//   - Codex's ~/.codex/config.toml ($CODEX_HOME/config.toml): TOML tables
//     [mcp_servers.NAME]. Codex takes values as written, so nothing in it
//     is expanded; variables come in by name: env_vars (copied into the
//     child's env when set), env_http_headers (header -> variable; an
//     unset one leaves the header out) and bearer_token_env_var (the
//     Authorization header; unset, the server is invalid). A url is
//     Streamable HTTP. tool_timeout_sec and startup_timeout_sec are
//     seconds (startup_timeout_ms milliseconds); enabled_tools and
//     disabled_tools filter tools.
//   - Claude Desktop's claude_desktop_config.json, in the OS's config
//     directory: "mcpServers".
//   - Zed's settings.json (.zed/settings.json in the project, and the
//     user's): "context_servers", each with "command" as a string (with
//     "args" and "env" beside it) or an object {"path", "args", "env"},
//     or a "url". A server an extension provides ("source": "extension")
//     only Zed can start: it is skipped with a warning.
//
// Every JSON file may contain // and /* */ comments and trailing commas
// (VS Code's JSONC). In the files that hold a host's whole settings
// (~/.claude.json, Gemini CLI's, Codex's, Claude Desktop's, Zed's) keys
// other than the servers' are ignored silently. Only the given directory
// is searched; Load does not walk up to a repository root. Project files
// come first, then the user's; the first definition of a name wins, and
// later ones are kept in Set.Shadowed. One exception: a project server
// never hides a user-level server. When a project file defines a name
// that a user file defines too, the project's server keeps the name and
// the user's is loaded as "user:NAME" (UserPrefix); a project server may
// not take a name starting with "user:".
//
// # Trust
//
// A file found in the project directory came with the repository, so its
// commands and the variables it would send somewhere are not the user's
// choice. Load reads its servers only once the user has approved its
// content (Approve, which the mcpwire trust command calls): approvals are
// kept in the state directory (LoadOptions.StateDir, by default
// $XDG_STATE_HOME/mcpwire or ~/.local/state/mcpwire, in
// trusted-configs.json), one SHA-256 of the content per absolute path, so
// an edited file is untrusted again. Until then the file is in
// Set.Untrusted, read by Inspect: its servers as written, with the
// variables each would read (Server.Vars), and no variable looked up.
// LoadOptions.LoadUntrusted loads such files anyway, each server marked
// Source.Untrusted. The user's own files and the files named in
// LoadOptions.Files need no approval.
//
// # Server fields
//
//	type           "stdio"; "http" (also "streamable-http", "streamableHttp",
//	               "streamable_http"); "sse". Without it: "command" means
//	               stdio, "httpUrl" means http, "url"/"serverUrl" means auto
//	               (Streamable HTTP, falling back to legacy SSE); but "url"
//	               means sse in Gemini CLI's files and http in Codex's.
//	command, args  the process to start (stdio)
//	env            variables added to the process environment (stdio)
//	cwd            working directory; relative to the project directory
//	envPolicy      "allowlist" (default: a safe set of the parent's
//	               variables) or "inherit" (all of them)
//	url            the endpoint (http, sse, auto); "serverUrl" (Windsurf)
//	               and "httpUrl" (Gemini CLI) are accepted spellings
//	headers        HTTP headers (http, sse, auto)
//	timeout        request timeout: milliseconds (30000) or a Go duration
//	               ("30s"); 0 disables. Codex: tool_timeout_sec (seconds)
//	enabled        false turns the server off; "disabled": true (Cline,
//	               Windsurf) does the same
//	enabledTools,  tool filters: exact names or path.Match globs; also
//	disabledTools  spelt includeTools/excludeTools (Gemini CLI) and
//	               enabled_tools/disabled_tools (Codex)
//	lazy           connect on first use
//	maxMessageSize the largest message from the server in bytes (stdio line,
//	               HTTP body, SSE event); -1 for none (mcpwire's own key)
//	protocolVersion the MCP revision to speak: "auto" (the default:
//	               negotiate) or a revision such as "2025-11-25" or
//	               "2026-07-28" (mcpwire's own key; --protocol for one server)
//	oauth          kept as written (Server.OAuth) for the authorization layer
//
// A null value counts as absent. An unknown field is a warning, not an
// error; a few fields other hosts define (description, alwaysAllow,
// autoApprove, trust, dev, Zed's settings) are skipped silently.
// "envFile" is not supported and draws a warning.
//
// # Variables
//
// command, args, env values, cwd, url and header values are expanded:
//
//	${VAR}              environment variable VAR
//	${VAR:-default}     VAR if set and not empty, else default (which may
//	                    itself hold references)
//	${env:VAR}          VS Code's spelling of ${VAR}
//	${input:id}         LoadOptions.Inputs["id"], else the environment
//	                    variable MCPWIRE_INPUT_ID (see InputEnvName); with
//	                    neither, the Problem carries a *MissingInputError
//	${workspaceFolder}  the project directory
//	${userHome}         the home directory
//	$${                 a literal "${" — the only escape
//
// A "$" not followed by "{" is literal, so "$HOME" and "$$" pass through
// unchanged, except in Gemini CLI's files, where $VAR is ${VAR}. A reference that cannot be resolved makes the server
// invalid, with a Problem naming the server, the field and the variable:
// a "${...}" is never handed to a server as written. Keys of env and
// headers, "type", "oauth" and the tool filters are not expanded.
//
// # Problems and secrets
//
// A bad file or entry never stops the others: Load returns every valid
// server together with Problems, each naming file, line, column, server
// and field. A value of the wrong type is one Problem, and no check of
// that value adds another. A file the caller named (LoadOptions.Files)
// is different: an error in it fails Load with ErrInvalid, as an error in
// any file does with LoadOptions.Strict. A malformed reference is quoted only up to its
// name (${TOKEN:…}). No Problem, error or String method ever contains the value
// of an env entry, a header or a variable, or the user info, path or
// query of a URL: they often hold tokens.
//
// # Cache keys
//
// Server.Raw is the definition before expansion, as canonical JSON, and
// Server.CacheKey hashes it with the name: rotating a secret in the
// environment keeps the key, editing the definition changes it.
package config
