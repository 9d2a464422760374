package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpwire/mcpwire/mcp"
)

func newShellCommand() *Command {
	return &Command{
		Name:    "shell",
		Summary: "an interactive session on one server",
		Usage:   "shell [--json] [flags] TARGET",
		Description: `Open an interactive session on the server TARGET (a URL, or -- COMMAND):
one connection, many commands, typed at a prompt with line editing,
history (kept in the user's state directory) and Tab completion of
commands, tool names, argument names, enum values and resource URIs.

Commands: tools [TOOL], call TOOL [K=V ...] (values converted by the
tool's schema as --arg does), resources, read URI, prompts, prompt NAME
[K=V ...], info, log LEVEL, help, exit. Their output is the one-shot
commands'; with --json each result is one JSON object.

A call's progress is a live line; Ctrl-C cancels the call in flight (the
server is sent notifications/cancelled) and the shell stays. Ctrl-C at
the prompt clears the line; Ctrl-D on an empty line, or exit, leaves.
The server's notifications (list changes, log messages, resource
updates) are printed above the prompt without disturbing what is typed.
A form or sampling request during a call is answered by the flags
(--elicit, --sampling-cmd), not asked.`,
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
		return Usagef("mcpwire shell needs a terminal (stdin and stderr); in a script, run the one-shot commands")
	}
	if configuredWanted(p) {
		return Usagef("mcpwire shell needs a TARGET: a server URL, or -- COMMAND [ARGS...]")
	}
	t, args, err := o.Target.Resolve(io, p)
	if err != nil {
		return err
	}
	if err := argCount(args, 0, 0, ""); err != nil {
		return err
	}
	sh := &shell{json: o.JSON, target: t}
	shIO := sh.streams(io)
	t.clientHook = sh.clientOptions
	return WithClient(ctx, shIO, t, func(c *mcp.Client) error {
		sh.client = c
		return sh.run(ctx)
	})
}

// shell is one interactive session: the connection, the terminal program
// and the lists completion offers.
type shell struct {
	json   bool
	target *Target
	client *mcp.Client
	io     *IOStreams // the commands' streams: through the program
	real   *IOStreams // the terminal's

	mu      sync.Mutex
	program *tea.Program // nil before and after the session
	tools   []mcp.Tool   // nil: to be listed again
	uris    []string
	prompts []string
	history *shellHistory
}

// streams are the commands' streams: their output goes above the prompt,
// and progress becomes the live line.
func (sh *shell) streams(io *IOStreams) *IOStreams {
	s := *io
	s.Prompter = nil // one program has the terminal: the flags answer
	s.IsTerminal = true
	s.Out = &shellWriter{sh: sh, direct: io.Out}
	s.ErrOut = &shellWriter{sh: sh, direct: io.ErrOut, live: true}
	sh.io, sh.real = &s, io
	return &s
}

// clientOptions subscribes the session to the server's notifications,
// which print above the prompt, and forgets a changed list.
func (sh *shell) clientOptions(opts *mcp.ClientOptions) {
	note := func(what string) { sh.println(Sanitize("notification: " + what)) }
	opts.OnToolsListChanged = func(context.Context) {
		sh.forget(func() { sh.tools = nil })
		note("tools/list_changed (the tool list changed)")
	}
	opts.OnResourcesListChanged = func(context.Context) {
		sh.forget(func() { sh.uris = nil })
		note("resources/list_changed (the resource list changed)")
	}
	opts.OnPromptsListChanged = func(context.Context) {
		sh.forget(func() { sh.prompts = nil })
		note("prompts/list_changed (the prompt list changed)")
	}
	opts.OnResourceUpdated = func(_ context.Context, u mcp.ResourceUpdated) {
		note("resources/updated " + u.URI)
	}
	opts.OnLogMessage = func(_ context.Context, m mcp.LoggingMessage) { sh.println(Sanitize(LogLine(m))) }
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

// run is the session: the prompt until exit or Ctrl-D.
func (sh *shell) run(ctx context.Context) error {
	sh.history = openShellHistory()
	m := newShellModel(ctx, sh)
	// Not tea.WithContext: an ended context kills the program, which
	// closes the terminal under its reader (see huhPrompter.run).
	p := tea.NewProgram(m, tea.WithInput(sh.real.In), tea.WithOutput(sh.real.ErrOut))
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	sh.mu.Lock()
	sh.program = p
	sh.mu.Unlock()
	fmt.Fprintf(sh.real.ErrOut, "mcpwire shell on %s: help lists the commands, Ctrl-D leaves\n", Sanitize(sh.target.Desc))
	_, err := p.Run()
	sh.mu.Lock()
	sh.program = nil
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
