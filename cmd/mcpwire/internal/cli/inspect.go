package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/inspect"
	"github.com/mcpwire/mcpwire/internal/browser"
	"github.com/mcpwire/mcpwire/internal/origin"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

func newInspectCommand() *Command {
	return &Command{
		Name:    "inspect",
		Summary: "open the inspector: servers, tools, calls and the wire in the browser",
		Usage:   "inspect [--port N | --listen ADDR] [--no-open] [flags] [TARGET]",
		Description: `Serve the inspector, a web page over MCP servers, on this machine and
open it in the browser. The page lists each server's state, tools,
resources and prompts, calls tools from forms built from their input
schemas (with live progress and cancel), keeps a history of the calls to
run again, edit and compare, shows the servers' notifications, lets you
answer what the servers ask (sampling, elicitation, roots), reports
whether each server is correct, and shows every JSON-RPC message of every
server on one live timeline (over HTTP with each exchange's status and
Mcp-* headers), exportable in the --record format.

TARGET is a URL, "-- COMMAND [ARGS...]", or a configured server's name;
without it, every configured server is shown.

The page is served on 127.0.0.1, on a free port unless --port is given.
The printed URL carries a random token; every request needs it (the
browser keeps it as a cookie after the first visit, sent only under the
page's random path, so no other local web server receives it), names
this machine and the page's port in its Host header, and changes nothing
unless it comes from the page itself. --listen ADDR (host:port) serves
on another address: anyone who can reach it and has the URL can run the
servers' tools, so mcpwire warns; on every interface (0.0.0.0:PORT), the
Host header may name any address of this machine or its hostname. --no-open prints the URL without
opening a browser. Ctrl-C stops the page and every server.`,
		Options: func() Options { return &inspectOptions{} },
	}
}

// inspectOptions are "mcpwire inspect"'s flags.
type inspectOptions struct {
	Target TargetFlags
	Port   int
	Listen string
	NoOpen bool
}

func (o *inspectOptions) Flags(fs *flag.FlagSet) {
	fs.IntVar(&o.Port, "port", 0, "serve on 127.0.0.1:`N` (default: a free port)")
	fs.StringVar(&o.Listen, "listen", "", "serve on `ADDR` (host:port) instead of 127.0.0.1; warns when that is not this machine alone")
	fs.BoolVar(&o.NoOpen, "no-open", false, "print the URL without opening a browser")
	o.Target.Register(fs)
}

// listenAddr is where to serve and whether only this machine can reach it.
func (o *inspectOptions) listenAddr() (string, bool, error) {
	if o.Port < 0 || o.Port > 65535 {
		return "", false, Usagef("--port must be between 0 and 65535, not %d", o.Port)
	}
	if o.Listen == "" {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(o.Port)), true, nil
	}
	if o.Port != 0 {
		return "", false, Usagef("--port and --listen both say where to serve; give one (--listen HOST:PORT)")
	}
	host, _, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return "", false, Usagef("--listen must be HOST:PORT, not %q", o.Listen)
	}
	return o.Listen, host != "" && origin.IsLoopbackHost(host), nil
}

func (o *inspectOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	addr, loopback, err := o.listenAddr()
	if err != nil {
		return err
	}
	wire := inspect.NewWire(0, 0)
	// Set before any secret is registered: AddSecret hands each one to
	// the recorder, so the wire log never shows it.
	io.wireTap = transport.NewRecorder(wire)
	io.clientExtensions = inspect.ClientExtensions() // the page renders MCP Apps
	io.inspectWire = wire                            // shows each HTTP exchange's status and Mcp-* headers
	// The servers' questions (sampling, elicitation, roots) wait for
	// the person at the page.
	hooks := inspect.NewHooks()
	io.inspectHooks = hooks
	servers, closeServers, signIn, err := o.servers(ctx, io, p)
	if err != nil {
		return err
	}
	defer closeServers()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serving the inspector: %w", err)
	}
	host := ln.Addr().(*net.TCPAddr)
	var hosts []string
	if !loopback {
		h, _, _ := net.SplitHostPort(o.Listen)
		if host.IP.IsUnspecified() {
			// Every interface: another machine names this one by any of
			// its addresses, or its name.
			hosts = machineHosts()
		} else {
			hosts = append(hosts, h)
		}
		fmt.Fprintf(io.ErrOut, "mcpwire: warning: --listen %s: the inspector can be reached from other machines; anyone with its URL can run these servers' tools\n", o.Listen)
	}
	// MCP App views' sandbox proxies live on a second origin: another
	// port on the same address.
	sandboxLn, err := net.Listen("tcp", net.JoinHostPort(host.IP.String(), "0"))
	if err != nil {
		ln.Close()
		return fmt.Errorf("serving the inspector's sandbox origin: %w", err)
	}
	// The URL names the address listened on (::1 and 127.0.0.2 too), but
	// for all interfaces, where this machine's own loopback reaches it.
	pageHost := "127.0.0.1"
	if !host.IP.IsUnspecified() {
		pageHost = host.IP.String()
	}
	sandboxOrigin := "http://" + net.JoinHostPort(pageHost, strconv.Itoa(sandboxLn.Addr().(*net.TCPAddr).Port))
	token := inspect.NewToken()
	insp, err := inspect.New(inspect.Options{Servers: servers, Wire: wire, Token: token, Hosts: hosts, Hooks: hooks, Redact: io.Redact, SandboxOrigin: sandboxOrigin,
		SignIn: pageSignIn(io, o.Target.AllowInsecureHTTP, signIn)})
	if err != nil {
		ln.Close()
		sandboxLn.Close()
		return err
	}
	page := (&url.URL{Scheme: "http", Host: net.JoinHostPort(pageHost, strconv.Itoa(host.Port)), Path: insp.Path(), RawQuery: "token=" + token}).String()
	srv := &http.Server{Handler: insp, ReadHeaderTimeout: 10 * time.Second, ErrorLog: quietLog}
	sandboxSrv := &http.Server{Handler: insp.Sandbox(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: quietLog}
	served := make(chan error, 2)
	go func() { served <- srv.Serve(ln) }()
	go func() { served <- sandboxSrv.Serve(sandboxLn) }()
	fmt.Fprintf(io.Out, "mcpwire inspect: %s\n", page)
	if host.IP.IsUnspecified() {
		fmt.Fprintf(io.ErrOut, "mcpwire: from another machine, open that URL with this machine's name or address in place of %s\n", pageHost)
	}
	fmt.Fprintln(io.ErrOut, "mcpwire: the inspector is running; Ctrl-C to stop")
	if !o.NoOpen {
		// Through a private file: the token stays off command lines,
		// which other users of this machine can read.
		remove, err := browser.OpenPrivate(ctx, page)
		defer remove() // the browser may read the file any time until the page ends
		if err != nil {
			fmt.Fprintf(io.ErrOut, "mcpwire: could not open a browser (%s); open the URL above\n", oneLine(err.Error()))
		}
	}
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	insp.Close() // ends the event streams and the calls still running
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shut)
	_ = sandboxSrv.Shutdown(shut)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving the inspector: %w", err)
	}
	return ctx.Err()
}

// servers connects what the command line names, through the same target
// and configuration code as every other command, each server's transport
// recorded into the page's wire log. signIn tells the page's sign-in
// where a server is.
func (o *inspectOptions) servers(ctx context.Context, io *IOStreams, p Parsed) (_ inspect.Servers, _ func(), signIn signInFor, _ error) {
	f := &o.Target
	if !configuredWanted(p) {
		if err := f.Config.CheckAdHoc(); err != nil {
			return nil, nil, nil, err
		}
		t, args, err := f.Resolve(io, p)
		if err != nil {
			return nil, nil, nil, err
		}
		if err := argCount(args, 0, 0, ""); err != nil {
			return nil, nil, nil, err
		}
		name, kind, target := adHocNames(p, t, &f.ServerFlags)
		raw := ""
		if !p.Dash && t.Auth != nil { // a URL without a token of the user's
			raw = p.Args[len(p.Args)-1]
		}
		inner := t.Transport // below the recorders: where an Authorizer goes
		var mu sync.Mutex
		var signedIn *auth.Authorizer // the page's sign-in, for the next connection
		// A stdio server, or a URL given its own header, gets no sign-in
		// from the page.
		if raw != "" {
			signIn = adHocSignIn(raw, func(a *auth.Authorizer) {
				mu.Lock()
				signedIn = a
				mu.Unlock()
			})
		}
		t.Transport = transport.Record(io.inspectWire.TapHTTP(t.Transport, name), io.wireTap, name)
		t.clientHook = func(opts *mcp.ClientOptions) {
			opts.ServerName = name // names the asker of each question
			io.inspectHooks.Apply(opts)
		}
		c, err := Connect(ctx, io, t)
		// A URL that wants a sign-in nobody at a terminal gave: the page
		// starts, to sign in from it.
		firstErr := err
		if err != nil && (raw == "" || !inspect.NeedsSignIn(err)) {
			return nil, nil, nil, err
		}
		// The page's reconnect: the same target, connected as at the
		// start (with the Authorizer of a sign-in from the page since);
		// the inspector closes the old client first.
		closed := false
		reconnect := func(ctx context.Context) (*mcp.Client, error) {
			mu.Lock()
			if signedIn != nil {
				t.Auth = signedIn
				signin.Attach(inner, signedIn)
				signedIn = nil
			}
			mu.Unlock()
			nc, err := Connect(ctx, io, t)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			defer mu.Unlock()
			if closed { // the command ended meanwhile: no child left behind
				nc.Close()
				return nil, errors.New("the inspector is closing")
			}
			c = nc
			return nc, nil
		}
		closeClient := func() {
			mu.Lock()
			defer mu.Unlock()
			closed = true
			if c != nil {
				c.Close()
			}
		}
		if c == nil {
			return inspect.FailedServer(name, kind, target, firstErr, t.stderr.String, reconnect), closeClient, signIn, nil
		}
		return inspect.OneServer(name, kind, target, c, t.stderr.String, reconnect), closeClient, signIn, nil
	}
	io.stderrTails = &serverTails{}
	s, err := openConfigured(io, &f.Config, &f.ServerFlags)
	if err != nil {
		return nil, nil, nil, err
	}
	name, _, err := s.pickServer(f.Config.Server, p.Args, 0, 0, "")
	if err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	if name != "" {
		// One server, named: connected first, as every command does (an
		// untrusted or broken one fails the command with its reason).
		// One that wants an OAuth sign-in is shown, to sign in from the page.
		if _, err := s.connect(ctx, name); err != nil && !inspect.NeedsSignIn(err) {
			s.Close()
			return nil, nil, nil, err
		}
		return inspect.ManagerServers(s.M, name, io.stderrTails.String), s.Close, configuredSignIn(io, s.Set), nil
	}
	// Every server: none starts while a project file waits for trust.
	if err := s.refuseUntrusted(); err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	if _, err := s.M.Start(ctx); err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	// Lazy servers too: the page is their first use. Outcomes show as
	// each server's state on the page.
	var wg sync.WaitGroup
	for _, st := range s.M.Servers() {
		if st.State != manager.StateDisabled {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = s.M.Connect(ctx, st.Name)
			}()
		}
	}
	return inspect.ManagerServers(s.M, "", io.stderrTails.String), func() { s.Close(); wg.Wait() }, configuredSignIn(io, s.Set), nil
}

// adHocNames names an ad-hoc target on the page: its name, its transport
// and how a copied command reaches it, its flags (copiedFlags) first; the
// page masks the secrets left in it.
func adHocNames(p Parsed, t *Target, f *ServerFlags) (name, kind string, target []string) {
	flags := copiedFlags(f, p.Dash)
	if p.Dash {
		return filepath.Base(p.Command[0]), "stdio", append(append(flags, "--"), p.Command...)
	}
	u, err := url.Parse(p.Args[len(p.Args)-1])
	if err != nil { // Resolve parsed it already
		return "server", targetKind(t), nil
	}
	u.User = nil
	return u.Host, targetKind(t), append(flags, u.String())
}

// targetKind is the transport a URL target uses.
func targetKind(t *Target) string {
	switch t.Transport.(type) {
	case *transport.SSE:
		return "sse"
	case *transport.StreamableHTTP:
		return "http"
	}
	return "http (auto)"
}

// serverTails keep each configured server's stderr tail for the page.
type serverTails struct {
	mu    sync.Mutex
	tails map[string]*tail
}

// tee returns the manager's Stderr option that also keeps the tails.
func (s *serverTails) tee(prev func(string) io.Writer) func(string) io.Writer {
	return func(name string) io.Writer {
		s.mu.Lock()
		if s.tails == nil {
			s.tails = map[string]*tail{}
		}
		t := s.tails[name]
		if t == nil {
			t = newTail()
			s.tails[name] = t
		}
		s.mu.Unlock()
		if prev != nil {
			return multiWriter(t, prev(name))
		}
		return t
	}
}

// String is the stderr tail of server name.
func (s *serverTails) String(name string) string {
	s.mu.Lock()
	t := s.tails[name]
	s.mu.Unlock()
	return t.String()
}

// quietLog drops the HTTP server's own log lines (a client that went away
// mid-stream): nothing a person at the terminal can act on.
var quietLog = log.New(io.Discard, "", 0)
