package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/mcpwire/mcpwire/mcp"
)

func newShellCommand() *Command {
	return &Command{
		Name:    "shell",
		Summary: "an interactive session on a server, or on the configured ones",
		Usage:   "shell [--json] [flags] [TARGET | SERVER]",
		Description: `Open an interactive session on the server TARGET (a URL, or -- COMMAND),
or without one on the configured servers (as "mcpwire servers" finds
and trusts them; --config and --server, or a SERVER name, narrow them):
one connection per server, many commands, typed at a prompt with line
editing, history (kept in the user's state directory) and Tab
completion of commands, server names, tool names, argument names, enum
values and resource URIs.

Commands: tools [TOOL], call TOOL [K=V ...] (values converted by the
tool's schema as --arg does), resources, read URI, prompts, prompt NAME
[K=V ...], info, log LEVEL, help, exit. Words are quoted as in a POSIX
shell (message="a b"), with nothing expanded. Their output is the
one-shot commands', on stdout; with --json each result is one JSON
object. On a TARGET whose connection ends, the next command connects
again.

On the configured servers, servers shows their status and use SERVER
picks the one the commands act on (the prompt shows it; use alone goes
back to all of them). With none picked, tools lists every server's
tools under their model-facing names (mcp__SERVER__TOOL), and call
takes such a name, SERVER/TOOL, or a tool name only one server has.

A call's progress is a live line; Ctrl-C cancels the call in flight (the
server is sent notifications/cancelled) and the shell stays. Ctrl-C at
the prompt clears the line; Ctrl-D on an empty line, or exit, leaves.
The servers' notifications (list changes, log messages, resource
updates) are printed above the prompt without disturbing what is typed,
on the configured servers under the server's name. A form, URL or
sampling request during a call is asked at the terminal, as the one-shot
commands ask it, naming the server; Ctrl-C in it cancels that request
only. The flags (--elicit, --sampling-cmd) answer instead when given.`,
		Options: func() Options { return &shellOptions{} },
	}
}

// shellOptions are "mcpwire shell"'s flags.
type shellOptions struct {
	Target TargetFlags
	JSON   bool
}

func (o *shellOptions) Flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.JSON, "json", false, "print each result as one JSON object")
	o.Target.Register(fs)
}

func (o *shellOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if io.Prompter == nil {
		return Usagef("the shell needs a terminal (stdin and stderr); in a script, run the one-shot commands")
	}
	sh := &shell{json: o.JSON}
	shIO := sh.streams(io)
	if configuredWanted(p) {
		return sh.runConfigured(ctx, &o.Target, p.Args)
	}
	t, _, err := o.Target.adHoc(io, p, 0, 0, "")
	if err != nil {
		return err
	}
	t.clientHook = sh.clientOptions
	c, err := Connect(ctx, shIO, t)
	if err != nil {
		return err
	}
	sh.target = &shellTarget{sh: sh, t: t}
	sh.target.start(c)
	defer sh.target.close()
	return sh.run(ctx, Sanitize(t.Desc))
}

// shell is one interactive session: the connection, the terminal program
// and the lists completion offers.
type shell struct {
	json bool
	// target is the one server of a TARGET (shell_target.go); servers
	// are the configured ones instead (shell_servers.go).
	target  *shellTarget
	servers *shellServers
	io      *IOStreams // the commands' streams: through the program
	real    *IOStreams // the terminal's

	mu      sync.Mutex
	program *tea.Program  // nil before and after the session
	ended   chan struct{} // closed when the session's program has ended
	// The current server's lists, for completion; nil: to be listed
	// again.
	tools   []mcp.Tool
	uris    []string
	prompts []string
	history *shellHistory
}

// streams are the commands' streams: their output goes above the prompt,
// progress becomes the live line, and questions pause the prompt.
func (sh *shell) streams(io *IOStreams) *IOStreams {
	s := *io
	s.Prompter = &shellPrompter{sh: sh, inner: io.Prompter}
	s.IsTerminal = true
	if io.OutIsTerminal {
		s.Out = &shellWriter{sh: sh, direct: io.Out}
	} // else results go where stdout was sent, as the one-shot commands'
	s.ErrOut = &shellWriter{sh: sh, direct: io.ErrOut, live: true}
	sh.io, sh.real = &s, io
	return &s
}

// clientOptions subscribes the session to the server's notifications,
// which print above the prompt, and forgets a changed list.
func (sh *shell) clientOptions(opts *mcp.ClientOptions) {
	note := func(method string) {
		sh.forgetList(method)
		sh.println(Sanitize("notification: " + listChangedNotes[method]))
	}
	opts.OnToolsListChanged = func(context.Context) { note(mcp.NotificationToolsListChanged) }
	opts.OnResourcesListChanged = func(context.Context) { note(mcp.NotificationResourcesListChanged) }
	opts.OnPromptsListChanged = func(context.Context) { note(mcp.NotificationPromptsListChanged) }
	opts.OnResourceUpdated = func(_ context.Context, u mcp.ResourceUpdated) {
		sh.println(sanitizeLine("notification: resources/updated " + u.URI))
	}
	opts.OnLogMessage = func(_ context.Context, m mcp.LoggingMessage) { sh.println(logText(m)) }
}

// listChangedNotes say what each list_changed notification means.
var listChangedNotes = map[string]string{
	mcp.NotificationToolsListChanged:     "tools/list_changed (the tool list changed)",
	mcp.NotificationResourcesListChanged: "resources/list_changed (the resource list changed)",
	mcp.NotificationPromptsListChanged:   "prompts/list_changed (the prompt list changed)",
}

// forgetList forgets the list a list_changed notification says changed.
func (sh *shell) forgetList(method string) {
	sh.forget(func() {
		switch method {
		case mcp.NotificationToolsListChanged:
			sh.tools = nil
		case mcp.NotificationResourcesListChanged:
			sh.uris = nil
		case mcp.NotificationPromptsListChanged:
			sh.prompts = nil
		}
	})
}

// forgetAll forgets every list: the server they came from is gone.
func (sh *shell) forgetAll() {
	sh.forget(func() { sh.tools, sh.uris, sh.prompts = nil, nil, nil })
}

func (sh *shell) forget(f func()) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	f()
}

// println prints one line above the prompt (or straight to the terminal
// when no session runs).
func (sh *shell) println(line string) {
	sh.mu.Lock()
	p := sh.program
	sh.mu.Unlock()
	if p == nil {
		fmt.Fprintln(sh.real.ErrOut, line)
		return
	}
	p.Println(line)
}

// setLive sends the progress line to the program.
func (sh *shell) setLive(line string) {
	sh.mu.Lock()
	p := sh.program
	sh.mu.Unlock()
	if p != nil {
		p.Send(liveMsg(line))
	}
}

// run is the session on what desc names: the prompt until exit or
// Ctrl-D.
func (sh *shell) run(ctx context.Context, desc string) error {
	sh.history = openShellHistory()
	m := newShellModel(ctx, sh)
	// Not tea.WithContext: an ended context kills the program, which
	// closes the terminal under its reader (see huhPrompter.run).
	// The program draws through the masking writer, which is no
	// terminal: its colours (none under NO_COLOR) are the terminal's.
	profile := colorprofile.Detect(os.Stderr, os.Environ())
	opts := append([]tea.ProgramOption{tea.WithInput(sh.real.In), tea.WithOutput(sh.real.ErrOut), tea.WithColorProfile(profile)}, sizeOption(os.Stderr)...)
	p := tea.NewProgram(m, opts...)
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	sizeCtx, stopSize := context.WithCancel(ctx)
	defer stopSize()
	followSize(sizeCtx, p, os.Stderr)
	sh.mu.Lock()
	sh.program, sh.ended = p, make(chan struct{})
	sh.mu.Unlock()
	fmt.Fprintf(sh.real.ErrOut, "mcpwire shell on %s: help lists the commands, Ctrl-D leaves\n", desc)
	_, err := p.Run()
	sh.mu.Lock()
	sh.program = nil
	close(sh.ended)
	sh.mu.Unlock()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// shellWriter is a command's stdout or stderr in the shell: whole lines
// print above the prompt; with live, "\r\x1b[K" + text (Progress's live
// line) becomes the live line instead.
type shellWriter struct {
	sh     *shell
	direct interface{ Write([]byte) (int, error) }
	live   bool
	mu     sync.Mutex
	buf    strings.Builder
}

func (w *shellWriter) Write(b []byte) (int, error) {
	w.sh.mu.Lock()
	running := w.sh.program != nil
	w.sh.mu.Unlock()
	if !running {
		return w.direct.Write(b)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	s := string(b)
	if w.live && strings.HasPrefix(s, "\r\x1b[K") && !strings.Contains(s, "\n") {
		w.sh.setLive(strings.TrimPrefix(s, "\r\x1b[K"))
		return len(b), nil
	}
	w.buf.WriteString(s)
	text := w.buf.String()
	i := strings.LastIndexByte(text, '\n')
	if i < 0 {
		return len(b), nil
	}
	w.buf.Reset()
	w.buf.WriteString(text[i+1:])
	for _, line := range strings.Split(text[:i], "\n") {
		w.sh.println(line)
	}
	return len(b), nil
}
