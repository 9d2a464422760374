package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/gateway"
	servercore "github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

func newGatewayCommand() *Command {
	return &Command{
		Name:    "serve",
		Summary: "serve the configured servers (or one server) as one MCP server",
		Usage:   "serve (--stdio | --listen ADDR) [flags] [TARGET]",
		Description: `Serve every configured server's tools as one MCP server, to a host that
reads its servers from a config of its own (Claude Code, Cursor, VS Code).
--stdio serves one host on stdin and stdout; --listen ADDR serves
Streamable HTTP at http://ADDR/mcp, to hosts of every protocol era. ADDR
without a host (":8080") binds loopback; the Host and Origin of each
request must be loopback names or ones given with --allowed-host, and
each must carry a bearer token: a random one shown on stderr at start,
or --auth-token-env's, or an OAuth token (--oauth-issuer); --no-auth
serves without one.

Each tool is listed as SERVER__TOOL (--separator changes "__", --prefix
SERVER=P changes one server's prefix, --no-prefix lists tools under their
own names and fails at start when two servers share a name). Calls go to
the owning server, with progress and cancellation passed through; a
server's tools/list_changed becomes the gateway's own. A server that is
down fails its own tools' calls, naming itself, while the others go on;
it is reconnected, and after five failures in a row tried again less and
less often (down to once a minute), for as long as serve runs. stderr
says when a server goes down, stops and comes back.

With TARGET (a URL, or -- COMMAND ARGS...), serve that one server as is:
the stdio-to-HTTP bridge. See docs/serve.md for what is not served yet.`,
		Options: func() Options { return &gatewayOptions{} },
	}
}

// gatewayOptions are "mcpwire serve"'s flags.
type gatewayOptions struct {
	Target       TargetFlags
	Stdio        bool
	Listen       string
	AllowedHosts StringList
	Separator    string
	NoPrefix     bool
	Prefixes     StringList
	LegacySSE    bool
	AuthTokenEnv string
	NoAuth       bool
	SessionKey   string
	SessionAge   time.Duration
	SessionIdle  time.Duration
	MaxSessions  int
	MaxRequests  int
	MaxStateless int
	Drain        time.Duration
	sessionKeys  [][]byte // read by loadSessionKeys
	Ops          serveOpsFlags
}

func (o *gatewayOptions) Flags(fs *flag.FlagSet) {
	o.Target.Register(fs)
	fs.BoolVar(&o.Stdio, "stdio", false, "serve one host on stdin and stdout")
	fs.StringVar(&o.Listen, "listen", "", "serve Streamable HTTP at http://`ADDR`/mcp (\":8080\" binds loopback)")
	fs.Var(&o.AllowedHosts, "allowed-host", "accept `NAME` in Host and Origin besides loopback names (repeatable)")
	fs.StringVar(&o.Separator, "separator", gateway.DefaultSeparator, "join server prefix and tool name with `SEP`")
	fs.BoolVar(&o.NoPrefix, "no-prefix", false, "list tools under their own names (a name two servers share is an error)")
	fs.Var(&o.Prefixes, "prefix", "list server's tools as PREFIX+SEP+TOOL, `SERVER=PREFIX` (repeatable; empty PREFIX: no prefix)")
	fs.BoolVar(&o.LegacySSE, "legacy-sse", false, "with --listen, also serve the 2024-11-05 HTTP+SSE transport at /sse")
	fs.StringVar(&o.AuthTokenEnv, "auth-token-env", "", "with --listen, require the token in environment variable `NAME` as Authorization: Bearer TOKEN")
	fs.BoolVar(&o.NoAuth, "no-auth", false, "with --listen, serve without a token (any process that reaches the address can call the tools)")
	fs.StringVar(&o.SessionKey, "session-key-file", "", "with --listen, seal session ids with the hex keys in `FILE` (else $"+sessionKeyEnv+"), so that replicas sharing them serve each other's sessions")
	fs.DurationVar(&o.SessionAge, "session-max-age", defaultSessionMaxAge, "with session keys, refuse a session id `DURATION` after its session started (the host starts a new one); 0: no bound")
	fs.DurationVar(&o.SessionIdle, "session-idle-timeout", defaultSessionIdle, "with --listen, end an HTTP session after `DURATION` with no request, no open GET stream and no call running (the host starts a new one); 0: never")
	fs.IntVar(&o.MaxSessions, "max-sessions", defaultMaxSessions, "with --listen, refuse a new HTTP session (503) while `N` are open; 0: no cap")
	fs.IntVar(&o.MaxRequests, "max-requests-per-session", gateway.DefaultMaxInFlight, "answer a host's request at once with a busy error (-32000) while `N` of its session's run; 0: no cap")
	fs.IntVar(&o.MaxStateless, "max-stateless-requests", gateway.DefaultMaxStatelessRequests, "with --listen, answer a 2026-07-28 host's request at once with 503 and a busy error (-32000) while `N` such requests (each a session of its own) run; 0: no cap")
	fs.DurationVar(&o.Drain, "drain", 0, "with --listen, on SIGTERM or Ctrl-C first stop taking connections and let calls in flight finish, for up to `DURATION` (a second signal stops at once); 0: stop at once")
	o.Ops.register(fs)
}

// The library's session bounds are the flags' defaults (see
// gateway.DefaultSessionIdleTimeout and DefaultMaxSessions for why these).
const (
	defaultSessionIdle = gateway.DefaultSessionIdleTimeout
	defaultMaxSessions = gateway.DefaultMaxSessions
)

// unbounded maps a flag's 0 ("no cap", "never") to the library's
// negative: the library's 0 is its default.
func unbounded[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// maxInFlight is gateway.Options.MaxInFlight for the flags.
func (o *gatewayOptions) maxInFlight() int { return unbounded(o.MaxRequests) }

// httpOptions are the gateway's HTTP options for the flags, with the
// endpoint's static token and session keys.
func (o *gatewayOptions) httpOptions(token string, keys [][]byte) *gateway.HTTPOptions {
	return &gateway.HTTPOptions{
		AllowedHosts: o.AllowedHosts, LegacySSE: o.LegacySSE, BearerToken: token, SessionKeys: keys, SessionMaxAge: o.SessionAge,
		SessionIdleTimeout: unbounded(o.SessionIdle), MaxSessions: unbounded(o.MaxSessions), MaxStatelessRequests: unbounded(o.MaxStateless),
		OAuth: o.Ops.oauth(), Metrics: o.Ops.MetricsListen == "",
	}
}

// defaultSessionMaxAge bounds a sealed session id's life: an id that
// leaked, or was ended on another replica, stays valid wherever the key
// is, and a day is longer than a working session lasts.
const defaultSessionMaxAge = 24 * time.Hour

// check validates the flags that need no server.
func (o *gatewayOptions) check() (map[string]string, error) {
	if o.Stdio == (o.Listen != "") {
		return nil, Usagef("give one of --stdio and --listen ADDR")
	}
	if given := o.listenOnlyGiven(); o.Stdio && len(given) > 0 {
		return nil, Usagef("%s %s for --listen", joinAnd(given), isAre(len(given)))
	}
	for i, h := range o.AllowedHosts {
		if err := checkAllowedHost(i, h); err != nil {
			return nil, err
		}
	}
	if o.SessionAge < 0 {
		return nil, Usagef("--session-max-age must not be negative (0: no bound)")
	}
	if o.SessionIdle < 0 {
		return nil, Usagef("--session-idle-timeout must not be negative (0: sessions never expire)")
	}
	if o.MaxSessions < 0 {
		return nil, Usagef("--max-sessions must not be negative (0: no cap)")
	}
	if o.MaxRequests < 0 {
		return nil, Usagef("--max-requests-per-session must not be negative (0: no cap)")
	}
	if o.Drain < 0 {
		return nil, Usagef("--drain must not be negative (0: stop at once)")
	}
	if o.MaxStateless < 0 {
		return nil, Usagef("--max-stateless-requests must not be negative (0: no cap)")
	}
	if err := o.Ops.check(o.Stdio, o.AuthTokenEnv != ""); err != nil {
		return nil, err
	}
	if o.NoAuth && (o.Stdio || o.AuthTokenEnv != "" || o.Ops.OAuthIssuer != "") {
		return nil, Usagef("--no-auth is for --listen, without --auth-token-env or --oauth-issuer")
	}
	if o.AuthTokenEnv != "" && strings.TrimSpace(os.Getenv(o.AuthTokenEnv)) == "" {
		return nil, Usagef("--auth-token-env: the environment variable %s is not set or empty (or white space only)", o.AuthTokenEnv)
	}
	if o.Separator == "" {
		return nil, Usagef("--separator must not be empty")
	}
	if err := checkNamePart("--separator", o.Separator); err != nil {
		return nil, err
	}
	prefixes := map[string]string{}
	for i, kv := range o.Prefixes {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, Usagef("--prefix #%d is not in SERVER=PREFIX form", i+1)
		}
		if err := checkNamePart(fmt.Sprintf("--prefix %s=...", k), v); err != nil {
			return nil, err
		}
		prefixes[k] = v
	}
	if o.NoPrefix && len(prefixes) > 0 {
		return nil, Usagef("--no-prefix and --prefix cannot be combined")
	}
	return prefixes, nil
}

// Run serves until the host leaves (--stdio) or ctx ends. An ended ctx
// (SIGINT, SIGTERM) is success, over stdio as over HTTP, where other
// commands exit 130: stopping a server is how its run ends, not a
// failure, and a service manager (systemd, Kubernetes, a host closing its
// servers) that stops it with SIGTERM would count 130 as a crash. What
// the stop brings about on the way out (a read cut off, the listener
// closed) is no error of the run.
func (o *gatewayOptions) Run(ctx context.Context, streams *IOStreams, p Parsed) error {
	prefixes, err := o.check()
	if err != nil {
		return err
	}
	if err := o.loadSessionKeys(streams); err != nil {
		return err
	}
	// What upstreams ask of their client (sampling, elicitation, roots)
	// goes to the host whose call caused it, in that host's era.
	relay := &gateway.Relay{}
	streams.gatewayRelay = relay
	m, only, err := o.upstreams(ctx, streams, p, prefixes)
	if err != nil {
		return err
	}
	// Every exit closes the manager, which ends every child it started.
	defer m.Close()
	// A warning can carry an upstream server's error message: one line,
	// without its escape sequences.
	warn := func(err error) {
		fmt.Fprintf(streams.ErrOut, "mcpwire: serve: %s\n", Sanitize(fold(streams.Redact(err.Error()))))
	}
	gopts := &gateway.Options{
		Name: ClientName, Version: Version(),
		Separator: o.Separator, Prefixes: prefixes, NoPrefix: o.NoPrefix, Servers: only, Relay: relay,
		Redact: streams.Redact,
		Warn:   warn,
		// An upstream going down, stopping and coming back: a gateway's
		// stderr is its operator's only view of it.
		Notice:      func(msg string) { warn(errors.New(msg)) },
		MaxInFlight: o.maxInFlight(),
	}
	closeOps, err := o.Ops.apply(ctx, streams, gopts)
	if err != nil {
		return err
	}
	defer closeOps()
	g, err := gateway.New(m, gopts)
	if err != nil {
		var ce *gateway.CollisionError
		if errors.As(err, &ce) {
			return o.reportCollisions(streams, ce)
		}
		return Usagef("%s", streams.Redact(err.Error()))
	}
	defer g.Close()
	stopMetrics, err := o.Ops.serveMetrics(streams, g)
	if err != nil {
		return err
	}
	defer stopMetrics()
	if o.Stdio {
		if streams.limitProcs != nil {
			streams.limitProcs(1) // one host's relay: see procs.go
		}
		out := streams.Out
		if streams.protocolOut != nil {
			out = streams.protocolOut // the gateway masks each string (Redact)
		}
		if f, ok := out.(*os.File); ok && f == os.Stdout {
			// A file of the gateway's own on the stdout pipe, in the
			// poller: each reply is written at once by the goroutine
			// that made it, through internal/quietsys, instead of by
			// a writer goroutine in a blocking call (bench/NOTES.md,
			// the twentieth round).
			cut, release := servercore.CuttableOutput(f)
			defer release()
			out = cut
		}
		err := g.ServeLines(ctx, readCloser(pollableStdin(streams.In)), writeCloser(out))
		if ctx.Err() != nil {
			return nil // stopped: see Run
		}
		if errors.Is(err, syscall.EPIPE) {
			// What a filter whose reader left would die of (SIGPIPE),
			// said in words: the reopened stdout gets EPIPE instead.
			return errors.New("serve --stdio: the host closed its end of standard output (broken pipe)")
		}
		return err
	}
	return o.serveHTTP(ctx, streams, g)
}

// upstreams starts the servers to serve: the configured ones (all, or the
// one --server names), or the one TARGET names, served under its own tool
// names.
func (o *gatewayOptions) upstreams(ctx context.Context, streams *IOStreams, p Parsed, prefixes map[string]string) (*manager.Manager, []string, error) {
	if !configuredWanted(p) {
		if err := o.Target.Config.CheckAdHoc(); err != nil {
			return nil, nil, err
		}
		t, rest, err := o.Target.Resolve(streams, p)
		if err != nil {
			return nil, nil, err
		}
		if len(rest) > 0 {
			return nil, nil, Usagef("unexpected argument %q before the server", rest[0])
		}
		if err := checkPrefixServers(prefixes, nil, nil); err != nil {
			return nil, nil, err
		}
		const name = "upstream"
		prefixes[name] = ""
		def := &config.Server{Name: name, Type: config.TypeStdio, Enabled: true}
		if !p.Dash {
			def.Type, def.URL = config.TypeHTTP, p.Args[len(p.Args)-1]
		}
		client := &mcp.ClientOptions{ClientInfo: mcp.Implementation{Name: ClientName, Version: Version()}, ProtocolVersion: t.Protocol}
		streams.gatewayRelay.Apply(client)
		m := manager.NewServers([]*config.Server{def}, &manager.Options{
			Client:      client,
			Dial:        func(context.Context, *config.Server) (transport.Transport, error) { return t.Transport, nil },
			StartupGate: -1,
		})
		if err := m.Connect(ctx, name); err != nil {
			m.Close()
			return nil, nil, fmt.Errorf("%s: %w", t.Desc, err)
		}
		return m, nil, nil
	}
	if len(p.Args) > 0 {
		return nil, nil, Usagef("unexpected argument %q (use --server NAME for one configured server)", p.Args[0])
	}
	s, err := openConfigured(streams, &o.Target.Config, &o.Target.ServerFlags)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for _, d := range s.Set.Servers {
		names = append(names, d.Name)
	}
	if err := checkPrefixServers(prefixes, s.known, names); err != nil {
		s.Close()
		return nil, nil, err
	}
	if name := o.Target.Config.Server; name != "" {
		if !s.known(name) {
			s.Close()
			return nil, nil, s.unknownServer(name)
		}
		// A server that fails to connect is served all the same: its calls
		// fail naming it, and supervision reconnects it.
		_ = s.M.Connect(ctx, name)
		if st, ok := s.M.Server(name); ok {
			s.reportServing([]manager.ServerStatus{st})
		}
		return s.M, []string{name}, nil
	}
	snap, err := s.StartAll(ctx)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	s.reportServing(snap.Servers)
	return s.M, nil, nil
}

// serveHTTP listens on --listen's address until ctx ends.
func (o *gatewayOptions) serveHTTP(ctx context.Context, streams *IOStreams, g *gateway.Gateway) error {
	ln, err := listenTCP("--listen", o.Listen)
	if err != nil {
		return err
	}
	keys := o.sessionKeys
	if len(keys) == 0 {
		fmt.Fprintf(streams.ErrOut, "mcpwire: serve: no session key (--session-key-file or %s): sessions stay local to this process, and a replica behind a load balancer does not know another's\n", sessionKeyEnv)
	}
	where := listenedAt(ln.Addr())
	token, err := o.endpointToken(streams, where)
	if err != nil {
		ln.Close()
		return err
	}
	srv := newServeHTTPServer(g.Handler(o.httpOptions(token, keys)))
	o.sayWhere(streams, where)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		if o.Drain > 0 {
			drain(streams, g, srv, o.Drain)
		}
	case err = <-served:
	}
	// Sessions first: their open streams would hold Close up.
	_ = g.Close()
	_ = srv.Close()
	if err == nil {
		err = <-served
	}
	if errors.Is(err, http.ErrServerClosed) || ctx.Err() != nil {
		return nil // stopped: see Run
	}
	return err
}

// listenTCP listens on addr, on loopback when addr names no host.
func listenTCP(flagName, addr string) (net.Listener, error) {
	if host, _, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = "127.0.0.1" + addr // loopback unless told otherwise
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, Usagef("%s: %v", flagName, err)
	}
	return ln, nil
}

type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// readCloser and writeCloser give the gateway the streams to close when
// it is done, or ones whose Close does nothing (a test's buffers).
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return nopReadCloser{r}
}

func writeCloser(w io.Writer) io.WriteCloser {
	if wc, ok := w.(io.WriteCloser); ok {
		return wc
	}
	return nopWriteCloser{w}
}
