package cli

// The configured side lets mcpwire's commands work on the servers of the
// config files (mcpwire.json, .mcp.json, .vscode/mcp.json, …, or the
// files given with --config) instead of one ad-hoc target: it loads them,
// runs them under a manager, and resolves SERVER/TOOL and model-facing
// tool names.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// ConfigFlags select the config files and the configured server.
type ConfigFlags struct {
	Files StringList
	// Server names one configured server (--server NAME).
	Server string
	// Strict makes a problem in a discovered file an error, as one in a
	// file named with --config always is.
	Strict bool
	// Inputs are VS Code ${input:ID} values, --input ID=VALUE.
	Inputs StringList
}

// Register adds --config, --server and --strict to fs.
func (f *ConfigFlags) Register(fs *flag.FlagSet) {
	fs.Var(&f.Files, "config", "read servers only from config `FILE` (repeatable); without it the project's and the user's config files are used")
	fs.StringVar(&f.Server, "server", "", "work on the configured server `NAME` only")
	fs.BoolVar(&f.Strict, "strict", false, "fail on a problem in a discovered config file instead of warning")
	fs.Var(&f.Inputs, "input", "the value of a VS Code ${input:ID} in the config, `ID=VALUE` (repeatable; or set MCPWIRE_INPUT_<ID>)")
}

// configuredWanted reports whether the command line names no ad-hoc server (no
// "--" command, no URL as the last argument), so that the configured
// servers are meant.
func configuredWanted(p Parsed) bool {
	if p.Dash {
		return false
	}
	n := len(p.Args)
	if n == 0 {
		return true
	}
	_, other := otherSchemeURL(p.Args[n-1])
	return !IsURL(p.Args[n-1]) && !other
}

// CheckAdHoc rejects --config and --server beside an ad-hoc target.
func (f *ConfigFlags) CheckAdHoc() error {
	if len(f.Files) > 0 || f.Server != "" {
		return Usagef("--config and --server select configured servers; they cannot be combined with a URL or a -- COMMAND target")
	}
	return nil
}

// Session is the loaded configuration and the manager running it.
type Session struct {
	Set *config.Set
	M   *manager.Manager
	// Timeout is the per-request timeout (jsonrpc.NoTimeout when
	// disabled), as --timeout gave it.
	Timeout time.Duration
	// ToolTimeout and ToolMaxTimeout are --tool-timeout's per-call
	// deadlines (zero: each server's client policy).
	ToolTimeout, ToolMaxTimeout time.Duration
	Verbose                     bool
	// LogLevel is --log-level, asked of each server as it is used.
	LogLevel mcp.LoggingLevel

	noticeMu   sync.Mutex
	noticeDone bool // StartAll returned: no more notice
	noticeLive bool // a live notice line is on the terminal

	io *IOStreams
}

// openConfigured loads the config files and builds a manager for their servers
// (nothing is started yet). Of the server flags only --timeout and
// --verbose apply; the others describe an ad-hoc target and are refused.
// Every secret of the loaded definitions is registered with io, so no
// error message can show one. The caller closes the session.
func openConfigured(streams *IOStreams, f *ConfigFlags, sf *ServerFlags) (*Session, error) {
	switch {
	case len(sf.Headers) > 0 || sf.BearerTokenEnv != "":
		return nil, Usagef("--header and --bearer-token-env are for a URL target; configured servers take their headers from their config")
	case len(sf.Env) > 0 || sf.InheritEnv:
		return nil, Usagef("--env and --inherit-env are for a -- COMMAND target; configured servers take their environment from their config")
	case sf.Transport != "" && sf.Transport != "auto":
		return nil, Usagef("--transport is for a URL target; configured servers take their type from their config")
	case sf.Timeout < 0:
		return nil, Usagef("--timeout must not be negative (0 disables it)")
	}
	level, err := sf.logLevel()
	if err != nil {
		return nil, err
	}
	protocol, err := sf.protocol()
	if err != nil {
		return nil, err
	}
	answers, err := sf.Input.resolve()
	if err != nil {
		return nil, err
	}
	inputs, err := StringArgs("--input", f.Inputs)
	if err != nil {
		return nil, err
	}
	for _, v := range inputs {
		streams.AddSecret(v)
	}
	set, err := loadConfig(f.Files, inputs)
	if asked := askMissingInputs(streams, set, inputs); asked != nil {
		set, err = loadConfig(f.Files, asked)
	}
	// An invalid named file comes back with its whole Set (config.ErrInvalid):
	// checkProblems reports every problem of it.
	if err != nil && (set == nil || !errors.Is(err, config.ErrInvalid)) {
		return nil, &ConfigError{Msg: err.Error()}
	}
	for _, s := range append(append([]*config.Server(nil), set.Servers...), set.Shadowed...) {
		addSecrets(streams, s)
	}
	if err := checkProblems(streams, f, sf.Verbose, set); err != nil {
		return nil, err
	}
	timeout, wait := sf.Timeout, sf.Timeout
	if timeout == 0 {
		timeout, wait = jsonrpc.NoTimeout, 24*time.Hour
	}
	s := &Session{Set: set, Timeout: timeout, Verbose: sf.Verbose, LogLevel: level, io: streams}
	s.ToolTimeout, s.ToolMaxTimeout = sf.toolPolicy()
	client := &mcp.ClientOptions{ClientInfo: mcp.Implementation{Name: ClientName, Version: Version()}, ProtocolVersion: protocol,
		OnNotificationsDropped: droppedNotice(streams, "a server"), Extensions: streams.clientExtensions}
	answers.apply(client, streams)
	if streams.inspectHooks != nil { // mcpwire inspect answers from its page
		streams.inspectHooks.Apply(client)
	}
	if streams.gatewayRelay != nil { // mcpwire serve asks its hosts
		streams.gatewayRelay.Apply(client)
	}
	if sf.timeoutSet {
		// --timeout is for protocol requests only; without the explicit
		// tool policy the library would give tool calls that deadline too.
		// Unset, the template stays empty, so that a server's configured
		// "timeout" is every request's deadline, as hosts mean it.
		client.Timeout = timeout
		client.ToolTimeout, client.ToolMaxTimeout = mcp.DefaultToolTimeout, mcp.DefaultToolMaxTimeout
	}
	opts := &manager.Options{
		ConnectTimeout: wait,
		ReconnectWait:  wait,
		StartupGate:    -1,
		Client:         client,
		StartUntrusted: trustProjectFromEnv(),
	}
	if sf.Verbose {
		opts.Stderr = func(server string) io.Writer {
			return streams.heldStderr.add(&prefixWriter{w: streams.ErrOut, prefix: "[" + server + "] ", secrets: streams.secrets})
		}
	}
	if streams.stderrTails != nil { // mcpwire inspect shows each server's stderr tail
		opts.Stderr = streams.stderrTails.tee(opts.Stderr)
	}
	// Remote servers use the tokens "mcpwire login SERVER" stored.
	opts.Dial = signin.Dial(dialConfigured(opts.Dir, opts.Stderr, sf.AllowInsecureHTTP), signin.Options{Out: streams.ErrOut, Verbose: sf.Verbose, AddSecret: streams.AddSecret, AllowInsecureHTTP: sf.AllowInsecureHTTP})
	if opts.Dial, err = sf.recordDial(streams, opts.Dial); err != nil {
		return nil, err
	}
	s.M = manager.New(set, opts)
	if sf.Verbose || sf.LogLevel != "" {
		s.M.Subscribe(s.showEvent)
	}
	return s, nil
}

// projectFiles are the config files of the project (the working
// directory) that discovery reads.
func projectFiles(f *ConfigFlags) map[string]bool {
	out := map[string]bool{}
	for _, loc := range config.Locations(config.LoadOptions{Files: f.Files}) {
		if loc.Scope == config.ScopeProject {
			out[loc.File] = true
		}
	}
	return out
}

// Close stops every server.
func (s *Session) Close() {
	s.M.Close()
}

// showEvent prints, with --verbose, what a user debugging a setup wants
// to see: failures, warnings and the servers' log messages.
func (s *Session) showEvent(e manager.Event) {
	switch e.Kind {
	case manager.Failed, manager.Warning:
		fmt.Fprintf(s.io.ErrOut, "mcpwire: %s: server %q: %s\n", e.Kind, e.Server, Sanitize(fold(s.io.Redact(e.Err.Error()))))
	case manager.Dropped:
		// A server's own drops are told by its client's callback (see
		// droppedNotice); these are the log lines this queue let go.
		if e.Server == "" {
			fmt.Fprintf(s.io.ErrOut, "mcpwire: warning: %d server log lines dropped: they came faster than they could be shown\n", e.Dropped)
		}
	case manager.Notification:
		if e.Notification.Method == mcp.NotificationMessage {
			fmt.Fprintf(s.io.ErrOut, "[%s] %s\n", e.Server, Sanitize(fold(s.io.Redact(string(e.Notification.Params)))))
		}
	}
}

// StartAll connects every enabled server, lazy ones too (a command that
// lists everything is their first use), and waits until each has
// connected or failed. When that takes longer than waitNotice, it says
// on stderr which servers it is waiting for: a live line on a terminal
// (cleared when done), one line in scripts.
func (s *Session) StartAll(ctx context.Context) (*manager.Snapshot, error) {
	if _, err := s.M.Start(ctx); err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	for _, st := range s.M.Servers() {
		if st.State == manager.StateLazy {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = s.M.Connect(ctx, st.Name) // the outcome shows in the status
			}()
		}
	}
	notice := time.AfterFunc(waitNotice, s.noticeWaiting)
	wg.Wait()
	snap, err := s.M.WaitSettled(ctx)
	s.endNotice(notice)
	return snap, err
}

// waitNotice is how long StartAll waits in silence.
const waitNotice = 2 * time.Second

// endNotice stops the waiting notice and clears its live line, so that
// what follows starts on a clean line; no notice comes after it.
func (s *Session) endNotice(notice *time.Timer) {
	notice.Stop()
	s.clearNotice()
	s.noticeMu.Lock()
	s.noticeDone = true
	s.noticeMu.Unlock()
}

// clearNotice clears a live notice line before output; a notice may still
// come later for the servers that remain.
func (s *Session) clearNotice() {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	if s.noticeLive {
		fmt.Fprint(s.io.ErrOut, "\r\x1b[K")
		s.noticeLive = false
	}
}

// noticeWaiting names the servers StartAll is still waiting for.
func (s *Session) noticeWaiting() {
	var waiting []string
	for _, st := range s.M.Servers() {
		switch st.State {
		case manager.StateConnecting, manager.StateReconnecting, manager.StateIdle:
			waiting = append(waiting, st.Name)
		}
	}
	if len(waiting) == 0 {
		return
	}
	line := fmt.Sprintf("mcpwire: waiting for %s", strings.Join(waiting, ", "))
	if s.Timeout > 0 && s.Timeout < 24*time.Hour {
		line += fmt.Sprintf(" (up to %s)", s.Timeout)
	}
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	if s.noticeDone {
		return
	}
	if s.io.IsTerminal {
		fmt.Fprint(s.io.ErrOut, "\r\x1b[K"+Truncate(Sanitize(line), DefaultWidth-1))
		s.noticeLive = true
		return
	}
	fmt.Fprintln(s.io.ErrOut, Sanitize(line))
}

// withAllConfigured is the life of a command about every configured server: open
// the configuration (openConfigured), start every server and wait for each
// (StartAll), run fn with the session and what StartAll saw, and stop the
// servers when fn returns. Servers of untrusted project files make it
// fail before anything starts, unless listUntrusted (the command only
// lists them).
func withAllConfigured(ctx context.Context, streams *IOStreams, f *ConfigFlags, sf *ServerFlags, listUntrusted bool,
	fn func(s *Session, snap *manager.Snapshot) error) error {
	s, err := openConfigured(streams, f, sf)
	if err != nil {
		return err
	}
	defer s.Close()
	if !listUntrusted {
		if err := s.refuseUntrusted(); err != nil {
			return err
		}
	}
	snap, err := s.StartAll(ctx)
	if err != nil {
		return err
	}
	return fn(s, snap)
}

// failures returns the servers that should be up and are not, after
// StartAll. An untrusted server is not one: it waits for the user.
func failures(snap *manager.Snapshot) []manager.ServerStatus {
	var out []manager.ServerStatus
	for _, st := range snap.Servers {
		switch st.State {
		case manager.StateConnected, manager.StateDisabled, manager.StateUntrusted:
		default:
			out = append(out, st)
		}
	}
	return out
}

// failureError is the error a command returns after listing what it could
// while some servers failed, each failure already shown: exit status 3.
func failureError(failed []manager.ServerStatus, total int) error {
	if len(failed) == 0 {
		return nil
	}
	what := fmt.Sprintf("server %q", failed[0].Name)
	if len(failed) > 1 {
		names := make([]string, len(failed))
		for i, st := range failed {
			names[i] = strconv.Quote(st.Name)
		}
		what = fmt.Sprintf("%d of %d configured servers (%s)", len(failed), total, strings.Join(names, ", "))
	}
	return &ConnectError{Target: what, Err: errors.New("see above")}
}

// ShowFailed prints one line per failed server, worded as "mcpwire call
// SERVER/TOOL" reports the same failure: the command's own error, which
// follows, only sums them up ("see above"), so none of them is a warning.
func (s *Session) ShowFailed(failed []manager.ServerStatus) {
	for _, st := range failed {
		if text, ok := invalidDefinition(st.Err); ok {
			fmt.Fprintf(s.io.ErrOut, "mcpwire: server %q has an invalid definition: %s\n", st.Name, Sanitize(fold(s.io.Redact(text))))
			continue
		}
		msg, tail := string(st.State), ""
		if st.Err != nil {
			msg, tail = splitStderrTail(shortenNotMCP(deadlineAsTimeout(st.Err, s.Timeout, s.configTimeout(st.Name))))
		}
		fmt.Fprintf(s.io.ErrOut, "mcpwire: cannot connect to server %q (%s): %s\n", st.Name, st.Source, Sanitize(fold(s.io.Redact(cliWording(msg)))))
		printStderrTail(s.io, tail)
	}
}

// addSecrets registers the values of a definition that may be secret: env
// values, header values, the URL's password and query values.
func addSecrets(io *IOStreams, s *config.Server) {
	places := ownPlaces()
	for _, v := range s.Env {
		if !places[filepath.Clean(v)] {
			io.AddSecret(v)
		}
	}
	for _, v := range s.Headers {
		io.AddSecret(v)
		// "Bearer <token>": the token alone may show up too.
		if _, tok, ok := strings.Cut(v, " "); ok {
			io.AddSecret(tok)
		}
	}
	if u, err := url.Parse(s.URL); err == nil {
		io.AddURLSecrets(u)
	}
}

// fold puts a multi-line message on one line.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " \u23ce ")), " ")
}

// prefixWriter copies a server's stderr to the terminal line by line,
// each line prefixed with the server's name.
type prefixWriter struct {
	w      io.Writer
	prefix string
	// secrets, when set, are the values to mask: an overlong line is not
	// cut inside one (see startCut).
	secrets *secretSet
	mu      sync.Mutex
	buf     []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			break
		}
		p.writeLineLocked(trimCR(p.buf[:i]))
		p.buf = p.buf[i+1:]
	}
	if len(p.buf) > maxHeldLine { // a very long line without a newline
		// Written in parts; a part ends where a character does, else
		// both halves would show as bytes that are not UTF-8, and not
		// inside a secret, else neither half would be masked. The start
		// of the cut character or secret waits for its end.
		keep := max(incompleteTail(p.buf), p.secrets.startCut(p.buf))
		p.writeLineLocked(p.buf[:len(p.buf)-keep])
		p.buf = append(p.buf[:0], p.buf[len(p.buf)-keep:]...)
	}
	return len(b), nil
}

// writeLineLocked writes line, sanitized, as a line of its own after the
// prefix. p.mu is held.
func (p *prefixWriter) writeLineLocked(line []byte) {
	fmt.Fprintf(p.w, "%s%s\n", p.prefix, Sanitize(string(line)))
}

// trimCR takes the CR of a CRLF line ending off line.
func trimCR(line []byte) []byte { return bytes.TrimSuffix(line, []byte("\r")) }

// flush writes the line held without its newline, if any.
func (p *prefixWriter) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.buf) > 0 {
		p.writeLineLocked(trimCR(p.buf))
		p.buf = nil
	}
}

// heldLines are the prefixWriters of a command's servers, the newest for
// each: a server's last line may lack its newline, and prefixWriter
// writes only whole lines, so Main writes what they hold once the servers
// have stopped. A server started again (a reconnect) replaces its older
// writer, whose child is gone, after writing what that one held: a
// long-running command keeps one a server. Safe for concurrent use
// (servers start in parallel); nil keeps nothing.
type heldLines struct {
	mu sync.Mutex
	ws map[string]*prefixWriter // by prefix
}

func (h *heldLines) add(w *prefixWriter) *prefixWriter {
	if h == nil {
		return w
	}
	h.mu.Lock()
	old := h.ws[w.prefix]
	if h.ws == nil {
		h.ws = map[string]*prefixWriter{}
	}
	h.ws[w.prefix] = w
	h.mu.Unlock()
	if old != nil {
		old.flush()
	}
	return w
}

func (h *heldLines) flush() {
	if h == nil {
		return
	}
	h.mu.Lock()
	ws := h.ws
	h.ws = nil
	h.mu.Unlock()
	for _, w := range ws {
		w.flush()
	}
}

// maxHeldLine is how much of a line without its newline prefixWriter
// holds before it writes that much as a line of its own.
const maxHeldLine = 4096
