package cli

import (
	"flag"
	"fmt"
	"github.com/mcpwire/mcpwire/config"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// ServerFlags are the flags that say which server to talk to and how. Every
// command that connects to a server registers them.
type ServerFlags struct {
	Headers        StringList
	BearerTokenEnv string
	Transport      string
	Env            StringList
	InheritEnv     bool
	// Timeout is --timeout, the deadline of protocol requests.
	Timeout time.Duration
	// ToolTimeout is --tool-timeout, the idle deadline of tool calls.
	ToolTimeout time.Duration
	Verbose     bool
	// LogLevel asks the server for log messages of this level and up
	// (logging/setLevel), printed on stderr; empty leaves it alone.
	LogLevel string
	// Protocol is --protocol: "auto" or a protocol revision to pin.
	Protocol string
	// Input answers a server's questions (--elicit, --elicit-json, --root).
	Input InputFlags
	// Record is --record FILE, a wire recording of every server.
	Record string
	// AllowInsecureHTTP is --allow-insecure-http (flags_security.go).
	AllowInsecureHTTP bool

	timeoutSet, toolTimeoutSet bool
}

// Register adds the flags to fs.
func (f *ServerFlags) Register(fs *flag.FlagSet) {
	fs.Var(&f.Headers, "header", "HTTP header `'Name: value'` for a URL server (repeatable)")
	fs.StringVar(&f.BearerTokenEnv, "bearer-token-env", "", "send `VAR`'s value as 'Authorization: Bearer ...' to a URL server")
	fs.StringVar(&f.Transport, "transport", "auto", "`KIND` of transport for a URL server: auto (Streamable HTTP, falling back to legacy SSE), http or sse")
	fs.Var(&f.Env, "env", "set `K=V` in a stdio server's environment (repeatable)")
	fs.BoolVar(&f.InheritEnv, "inherit-env", false, "give a stdio server this process's whole environment, not just the safe basics")
	f.registerTimeouts(fs)
	fs.BoolVar(&f.Verbose, "verbose", false, "show the server's stderr and log messages live")
	fs.BoolVar(&f.Verbose, "stderr", false, "same as --verbose")
	fs.StringVar(&f.LogLevel, "log-level", "", "ask the server for log messages of `LEVEL` and up (debug, info, notice, warning, error, critical, alert, emergency), shown on stderr")
	registerAllowInsecureHTTP(fs, &f.AllowInsecureHTTP)
	fs.StringVar(&f.Protocol, "protocol", "", "protocol `VERSION` to speak: auto (the default: probe with server/discover, fall back to initialize), "+mcp.ModernProtocolVersion+" (pin the stateless era) or an older revision such as 2025-11-25 (pin initialize)")
	f.Input.register(fs)
	f.registerRecord(fs)
}

// Target is a resolved server: how to reach it and how to name it.
type Target struct {
	Transport transport.Transport
	// Desc names the server without secrets: the stdio command's name,
	// or the URL without user info and query.
	Desc string
	// Timeout is the protocol requests' timeout for mcp.ClientOptions
	// (NoTimeout when disabled).
	Timeout time.Duration
	// ToolTimeout and ToolMaxTimeout are the tool calls' idle deadline
	// and cap (mcp.CallOptions); zero means the client's policy.
	ToolTimeout, ToolMaxTimeout time.Duration
	// CallCap is an explicit --timeout on "mcpwire call": the whole
	// call's deadline, idle or not (0: none).
	CallCap time.Duration
	// Verbose asks for the server's stderr and logs on io.ErrOut.
	Verbose bool
	// LogLevel is --log-level: the level to ask for, "" for none.
	LogLevel mcp.LoggingLevel
	// Protocol is --protocol for mcp.ClientOptions.ProtocolVersion: ""
	// for auto.
	Protocol string
	// Auth authorizes a URL target that was given no Authorization
	// header: stored tokens, and a browser sign-in on a terminal.
	Auth *auth.Authorizer
	// input answers the server's questions; nil declares nothing.
	input *answers
	// configTimeout is the configured server's own "timeout" (every
	// request's deadline, the handshake's too), 0 when it sets none;
	// deadlineAsTimeout tells which of it and Timeout a timed-out
	// handshake ran out of.
	configTimeout time.Duration
	// clientHook, when set, adds to the client's options (the shell's
	// notification callbacks).
	clientHook func(*mcp.ClientOptions)

	stderr *tail
	// hint gives advice for a failed connect (connectHint).
	hint func(error) string
}

// Resolve picks the server out of the command line. A server is either the
// command after "--" (stdio) or, without "--", the last positional argument,
// which must then be an http:// or https:// URL. Resolve returns the target
// and the positional arguments that remain for the command itself. Secrets
// (token, header values, env values) are registered with io.AddSecret.
func (f *ServerFlags) Resolve(io *IOStreams, p Parsed) (*Target, []string, error) {
	if f.Timeout < 0 {
		return nil, nil, Usagef("--timeout must not be negative (0 disables it)")
	}
	timeout := f.Timeout
	if timeout == 0 {
		timeout = jsonrpc.NoTimeout
	}
	level, err := f.logLevel()
	if err != nil {
		return nil, nil, err
	}
	protocol, err := f.protocol()
	if err != nil {
		return nil, nil, err
	}
	input, err := f.Input.resolve()
	if err != nil {
		return nil, nil, err
	}
	if p.Dash {
		t, err := f.stdio(io, p.Command)
		if err != nil {
			return nil, nil, err
		}
		t.Timeout, t.LogLevel, t.Protocol, t.input = timeout, level, protocol, input
		t.ToolTimeout, t.ToolMaxTimeout = f.toolPolicy()
		return t, p.Args, f.record(io, t)
	}
	if len(p.Args) == 0 {
		return nil, nil, Usagef("no server given: add a server URL, or -- COMMAND [ARGS...] to start one over stdio")
	}
	last := p.Args[len(p.Args)-1]
	if scheme, ok := otherSchemeURL(last); ok {
		// Only the scheme is shown: the rest may carry a secret.
		return nil, nil, Usagef("%s:// is not a transport MCP defines: give the server's http:// or https:// URL (Streamable HTTP, or HTTP+SSE with --transport sse)", scheme)
	}
	if !IsURL(last) {
		// The argument is not quoted: it may be a stray secret.
		return nil, nil, Usagef("no server given: the last argument is not an http:// or https:// URL (use -- COMMAND [ARGS...] for a stdio server)")
	}
	t, err := f.remote(io, last)
	if err != nil {
		return nil, nil, err
	}
	t.Timeout, t.LogLevel, t.Protocol, t.input = timeout, level, protocol, input
	t.ToolTimeout, t.ToolMaxTimeout = f.toolPolicy()
	return t, p.Args[:len(p.Args)-1], f.record(io, t)
}

func (f *ServerFlags) stdio(io *IOStreams, argv []string) (*Target, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, Usagef("nothing after --: give the command that starts the server")
	}
	if len(f.Headers) > 0 || f.BearerTokenEnv != "" {
		return nil, Usagef("--header and --bearer-token-env are for URL servers, not stdio commands (use --env)")
	}
	if f.Transport != "auto" && f.Transport != "stdio" {
		return nil, Usagef("--transport %s is for URL servers; a command after -- always runs over stdio", f.Transport)
	}
	def := &config.Server{Type: config.TypeStdio, Command: argv[0], Args: argv[1:], Env: map[string]string{}, InheritEnv: f.InheritEnv}
	for i, kv := range f.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.ContainsAny(k, "\x00") {
			return nil, Usagef("--env #%d is not in K=V form", i+1)
		}
		io.AddSecret(v)
		def.Env[k] = v
	}
	t := &Target{
		Desc:    fmt.Sprintf("stdio server %q", filepath.Base(argv[0])),
		Verbose: f.Verbose,
		stderr:  newTail(),
	}
	opts := transport.ServerOptions{Stderr: t.stderr}
	if f.Verbose {
		live := newSanitizeWriter(io.ErrOut, "["+Sanitize(filepath.Base(argv[0]))+"] ")
		live.secrets = io.secrets
		opts.Stderr = multiWriter(t.stderr, live)
		io.stderrLive = true
	}
	given := slices.Collect(maps.Keys(def.Env))
	t.hint = func(err error) string {
		return connectHint(err, t.stderr.String(), "", true, def.InheritEnv, given, fixFlags)
	}
	tr, err := transport.FromServer(def, opts)
	if err != nil {
		return nil, Usagef("%s", err.Error())
	}
	t.Transport = tr
	return t, nil
}

func (f *ServerFlags) remote(io *IOStreams, raw string) (*Target, error) {
	if len(f.Env) > 0 || f.InheritEnv {
		return nil, Usagef("--env and --inherit-env are for stdio commands, not URL servers (use --header)")
	}
	desc, err := ParseServerURL(io, raw)
	if err != nil {
		return nil, err
	}
	typ, err := config.ParseType(f.Transport)
	if err != nil || typ == config.TypeStdio {
		return nil, Usagef("--transport must be auto, http or sse, not %q", f.Transport)
	}
	def := &config.Server{Type: typ, URL: raw, Headers: map[string]string{}}
	for i, h := range f.Headers {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || !validHeaderName(name) {
			return nil, Usagef("--header #%d is not in 'Name: value' form", i+1)
		}
		value = strings.TrimSpace(value)
		io.AddSecret(value)
		name = http.CanonicalHeaderKey(name)
		if prev, ok := def.Headers[name]; ok {
			value = prev + ", " + value // repeated header: one field, as HTTP allows
		}
		def.Headers[name] = value
	}
	if f.BearerTokenEnv != "" {
		if def.Headers["Authorization"] != "" {
			return nil, Usagef("both --bearer-token-env and an Authorization --header given; use one")
		}
		tok, ok := os.LookupEnv(f.BearerTokenEnv)
		tok = strings.TrimSpace(tok)
		if !ok || tok == "" {
			return nil, Usagef("--bearer-token-env: environment variable %s is unset or empty", f.BearerTokenEnv)
		}
		io.AddSecret(tok)
		def.Headers["Authorization"] = "Bearer " + tok
	}
	t := &Target{Desc: desc, Verbose: f.Verbose}
	t.hint = func(err error) string { return connectHint(err, "", raw, false, false, nil, "") }
	if def.Headers["Authorization"] == "" {
		// OAuth as MCP specifies it, unless the user brought a token.
		t.Auth, err = signin.New(raw, signin.Options{Interactive: io.IsTerminal, Out: io.ErrOut, Verbose: f.Verbose, AddSecret: io.AddSecret, AllowInsecureHTTP: f.AllowInsecureHTTP})
		if err != nil {
			return nil, Usagef("%s", err.Error())
		}
	}
	if t.Transport, err = transport.FromServer(def, transport.ServerOptions{AllowInsecureHTTP: f.AllowInsecureHTTP}); err != nil {
		return nil, usageFrom(io.Redact(err.Error()), err)
	}
	if auto, ok := t.Transport.(*transport.Auto); ok && f.Verbose {
		auto.OnFallback = func(err error) {
			fmt.Fprintf(io.ErrOut, "mcpwire: no Streamable HTTP at %s (%s); trying the legacy HTTP+SSE transport\n", desc, oneLine(io.Redact(err.Error())))
		}
	}
	if t.Auth != nil {
		signin.Attach(t.Transport, t.Auth)
	}
	return t, nil
}

// validHeaderName reports whether s is an HTTP token (RFC 9110).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return true
}

// protocol checks --protocol; auto is "" (the client's default).
func (f *ServerFlags) protocol() (string, error) {
	if f.Protocol == "auto" || f.Protocol == "" {
		return "", nil
	}
	if f.Protocol == mcp.ModernProtocolVersion || mcp.IsSupportedProtocolVersion(f.Protocol) {
		return f.Protocol, nil
	}
	return "", Usagef("--protocol must be auto, %s or one of %s, not %q", mcp.ModernProtocolVersion, strings.Join(mcp.ProtocolVersions(), ", "), f.Protocol)
}

// logLevel checks --log-level.
func (f *ServerFlags) logLevel() (mcp.LoggingLevel, error) {
	level := mcp.LoggingLevel(strings.ToLower(f.LogLevel))
	if f.LogLevel != "" && level.Severity() < 0 {
		return "", Usagef("--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency, not %q", f.LogLevel)
	}
	return level, nil
}
