package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// TargetFlags say which servers a command works on: an ad-hoc one (a URL
// or "-- COMMAND", with ServerFlags saying how to reach it) or configured
// ones (ConfigFlags: the files, --server NAME).
type TargetFlags struct {
	ServerFlags
	Config ConfigFlags
}

// Register adds the server and config flags to fs.
func (f *TargetFlags) Register(fs *flag.FlagSet) {
	f.ServerFlags.Register(fs)
	f.Config.Register(fs)
}

// Conn is one connected server a command works on.
type Conn struct {
	// Name is the configured server's name; empty for an ad-hoc target.
	Name   string
	Client *mcp.Client
	// Target names the server in errors (Target.Explain).
	Target *Target
	// Many is set when the command goes over several configured servers
	// and prints one JSON document for all (jsonDocs).
	Many bool
}

// Each is the life of a command that works on servers: it resolves the
// command line to the servers meant, connects each in turn, runs fn with
// it and the n positional arguments that remain (what names them for
// errors), and closes every client and server before it returns, also
// when ctx ends (so queued cancels are flushed, as Close bounds it).
//
//   - A URL as the last argument or "-- COMMAND": that one server.
//   - --server NAME, a first argument that names a configured server
//     (mcpwire tools everything), or NAME/ARG where the command takes one
//     argument (mcpwire read everything/demo://x): that configured server.
//   - Otherwise the configured servers: every enabled one for a command
//     that takes no argument (each listed under its name; those that fail
//     are reported and make the exit status 3), and the only one for
//     a command that takes some.
func (f *TargetFlags) Each(ctx context.Context, io *IOStreams, p Parsed, minArgs, maxArgs int, what string, fn func(c Conn, args []string) error) error {
	return f.each(ctx, io, p, minArgs, maxArgs, what, nil, fn)
}

// adHoc resolves a URL or "-- COMMAND" target: no config flags may be
// given with one, and the arguments left must number minArgs to maxArgs.
func (f *TargetFlags) adHoc(io *IOStreams, p Parsed, minArgs, maxArgs int, what string) (*Target, []string, error) {
	if err := f.Config.CheckAdHoc(); err != nil {
		return nil, nil, err
	}
	t, args, err := f.Resolve(io, p)
	if err != nil {
		return nil, nil, err
	}
	if err := argCount(args, minArgs, maxArgs, what); err != nil {
		return nil, nil, err
	}
	return t, args, nil
}

// each is Each; docs, when not nil, makes the output over every
// configured server one JSON document (see jsonDocs).
func (f *TargetFlags) each(ctx context.Context, io *IOStreams, p Parsed, minArgs, maxArgs int, what string, docs *jsonDocs, fn func(c Conn, args []string) error) error {
	if c, ok := shellConn(ctx); ok {
		// Run from "mcpwire shell": its connection, not a new one.
		if err := argCount(p.Args, minArgs, maxArgs, what); err != nil {
			return err
		}
		return fn(c, p.Args)
	}
	if !configuredWanted(p) {
		t, args, err := f.adHoc(io, p, minArgs, maxArgs, what)
		if err != nil {
			return err
		}
		return WithClient(ctx, io, t, func(c *mcp.Client) error {
			return fn(Conn{Client: c, Target: t}, args)
		})
	}
	s, err := openConfigured(io, &f.Config, &f.ServerFlags)
	if err != nil {
		return err
	}
	defer s.Close()
	if len(s.M.Servers()) == 0 && f.Config.Server == "" {
		return noServerGiven()
	}
	name, args, err := s.pickServer(f.Config.Server, p.Args, minArgs, maxArgs, what)
	if err != nil {
		return err
	}
	if name != "" {
		c, err := s.connect(ctx, name)
		if err != nil {
			return err
		}
		return fn(c, args)
	}
	return s.eachServer(ctx, io, docs, func(c Conn) error { return fn(c, args) })
}

// eachServer connects every enabled server at once and runs fn with each
// as soon as it is up, in the order they come up, each under a "== NAME"
// line; one that fails is reported at once. The others' results are
// not held back by a slow or dead one. It returns the exit-3 error when
// any failed. With docs, fn's output is each server's JSON document (no
// heading), and the merged document is printed once all have answered.
func (s *Session) eachServer(ctx context.Context, io *IOStreams, docs *jsonDocs, fn func(c Conn) error) error {
	if err := s.refuseUntrusted(); err != nil {
		return err
	}
	if _, err := s.M.Start(ctx); err != nil {
		return err
	}
	type outcome struct {
		st  manager.ServerStatus
		err error
	}
	var servers []manager.ServerStatus
	for _, st := range s.M.Servers() {
		if st.State != manager.StateDisabled {
			servers = append(servers, st)
		}
	}
	done := make(chan outcome, len(servers)) // buffered: no sender waits after an early return
	for _, st := range servers {
		go func() { done <- outcome{st, s.M.Connect(ctx, st.Name)} }()
	}
	notice := time.AfterFunc(waitNotice, s.noticeWaiting)
	defer s.endNotice(notice)
	var failed []manager.ServerStatus
	first := true
	for range servers {
		o := <-done
		if o.err != nil {
			o.st.State, o.st.Err = manager.StateFailed, unwrapManager(o.err)
			failed = append(failed, o.st)
			s.clearNotice()
			s.ShowFailed([]manager.ServerStatus{o.st})
			continue
		}
		c, err := s.connect(ctx, o.st.Name)
		if err != nil {
			return err
		}
		s.clearNotice()
		if docs != nil {
			c.Many = true
			if err := fn(c); err != nil {
				return err
			}
			continue
		}
		if !first {
			fmt.Fprintln(io.Out)
		}
		first = false
		fmt.Fprintf(io.Out, "== %s\n", Sanitize(o.st.Name))
		if err := fn(c); err != nil {
			return err
		}
	}
	if docs != nil {
		if err := docs.write(io.Out, servers); err != nil {
			return err
		}
	} else if len(servers) == 0 {
		fmt.Fprintln(io.Out, "(no servers configured: see \"mcpwire help servers\" for the files mcpwire reads)")
	}
	return failureError(failed, len(servers))
}

// unwrapManager drops the manager's wrapping (which names the server, as
// the failure line already does).
func unwrapManager(err error) error {
	var me *manager.Error
	if errors.As(err, &me) {
		return me.Err
	}
	return err
}

// pickServer decides which configured server the command line names (""
// for all of them) and the command's own arguments.
func (s *Session) pickServer(name string, args []string, minArgs, maxArgs int, what string) (string, []string, error) {
	if name == "" && len(args) > 0 {
		if len(args)-1 >= minArgs && s.known(args[0]) {
			name, args = args[0], args[1:]
		} else if server, rest, ok := s.splitRef(args[0]); ok && maxArgs > 0 {
			name, args = server, append([]string{rest}, args[1:]...)
		} else if maxArgs == 0 && len(args) == 1 {
			return "", nil, s.unknownServer(args[0])
		}
	}
	if err := argCount(args, minArgs, maxArgs, what); err != nil {
		return "", nil, err
	}
	if name != "" {
		if !s.known(name) {
			return "", nil, s.unknownServer(name)
		}
		return name, args, nil
	}
	if len(args) == 0 {
		return "", args, nil
	}
	// "The only server configured" is not decided while some wait for
	// the user's approval: the user may mean one of them.
	if err := s.refuseUntrusted(); err != nil {
		return "", nil, err
	}
	var enabled []string
	for _, d := range s.Set.Servers {
		if d.Enabled {
			enabled = append(enabled, d.Name)
		}
	}
	if len(enabled) == 1 {
		return enabled[0], args, nil
	}
	if len(enabled) == 0 {
		return "", nil, Usagef("no server given and none configured: add a URL or -- COMMAND, or see \"mcpwire help servers\"")
	}
	if didYouMean(args[0], enabled) != "" {
		return "", nil, s.unknownServer(args[0])
	}
	return "", nil, Usagef("which server? name one with --server NAME or as NAME/%s (configured: %s)", what, strings.Join(enabled, ", "))
}

// argCount checks that between minArgs and maxArgs arguments remain
// besides the server; what names them.
func argCount(args []string, minArgs, maxArgs int, what string) error {
	switch {
	case len(args) >= minArgs && len(args) <= maxArgs:
		return nil
	case len(args) < minArgs:
		return Usagef("missing %s", what)
	case maxArgs == 0:
		return Usagef("unexpected argument: this command takes none besides the server")
	}
	// The extra argument is not quoted: a stray word may be half of an
	// unquoted --header value, that is a secret.
	return Usagef("too many arguments: expected only %s and the server", what)
}

// known reports whether name is a configured server, valid or not.
func (s *Session) known(name string) bool {
	if s.Set.Lookup(name) != nil {
		return true
	}
	_, ok := s.M.Server(name)
	return ok
}

// splitRef splits NAME/REST at the first "/" after which the prefix is a
// configured server (server names may hold "/" too).
func (s *Session) splitRef(ref string) (server, rest string, ok bool) {
	for i := range len(ref) {
		if ref[i] == '/' && s.known(ref[:i]) {
			return ref[:i], ref[i+1:], true
		}
	}
	return "", "", false
}

// unknownServer is the usage error for a name that is no configured
// server, with the nearest names as suggestions.
func (s *Session) unknownServer(name string) error {
	var names []string
	for _, d := range s.Set.Servers {
		names = append(names, d.Name)
	}
	return Usagef("no configured server is named %q%s (\"mcpwire servers\" lists them)", name, didYouMean(name, names))
}

// connect connects the configured server name and returns its client.
func (s *Session) connect(ctx context.Context, name string) (Conn, error) {
	t := s.target(name)
	if def := s.Set.Lookup(name); def != nil {
		given := slices.Collect(maps.Keys(def.Env))
		stdio := def.Command != ""
		t.hint = func(err error) string { return connectHint(err, "", def.URL, stdio, def.InheritEnv, given, fixConfig) }
	}
	if err := s.M.Connect(ctx, name); err != nil {
		return Conn{}, connectError(t, err)
	}
	c, err := s.M.Client(ctx, name)
	if err != nil {
		return Conn{}, connectError(t, err)
	}
	askLogLevel(ctx, s.io, c, s.LogLevel)
	return Conn{Name: name, Client: c, Target: t}, nil
}

// noServerGiven is the usage error of a command that got no server and
// finds none configured.
func noServerGiven() error {
	return Usagef("no server given: add a server URL, or -- COMMAND [ARGS...] to start one over stdio (no configured servers either: see \"mcpwire help servers\")")
}
