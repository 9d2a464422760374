package cli

// root.go is mcpwire's entry point: it picks the subcommand, runs it
// and turns its error into the exit code and the one line on stderr.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
)

// commands builds every subcommand, in the order "mcpwire help" lists them.
// Each is built fresh per run because a Command keeps its flag values.
var commands = []func() *Command{
	newServersCommand,
	newTrustCommand,
	newToolsCommand,
	newCallCommand,
	newResourcesCommand,
	newReadCommand,
	newPromptsCommand,
	newPromptCommand,
	newInfoCommand,
	newPingCommand,
	newCompleteCommand,
	newRequestCommand,
	newWatchCommand,
	newShellCommand,
	newInspectCommand,
	newGatewayCommand,
	newLoginCommand,
	newLogoutCommand,
	newAuthCommand,
	newDemoCommand,
	newVersionCommand,
	newCompletionCommand,
	newServeCommand,
}

// Run is the whole program: it runs mcpwire with args (without the
// program name) on the process's standard streams and returns the exit
// code. Ctrl-C or SIGTERM cancels the run: calls in flight return, the
// server is closed properly (its queued cancels flushed, within the
// client's bound), and the exit status is 130.
func Run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, restore the default handling: shutting
		// a server down may take a few seconds, and a second Ctrl-C
		// should end mcpwire at once.
		<-ctx.Done()
		stop()
	}()
	defer stop()
	return Main(ctx, System(), args)
}

// Main runs mcpwire with args (without the program name) and returns the
// exit code. ctx ends the run early (Run cancels it on Ctrl-C); an ended
// ctx is reported as an interruption.
func Main(ctx context.Context, streams *IOStreams, args []string) int {
	io := *streams
	// Server stderr, progress, log messages and the command itself may all
	// write at once; each write lands whole.
	// Registered secrets (tokens among them) are masked in all output.
	if io.secrets == nil {
		io.secrets = &secretSet{}
	}
	io.protocolOut = streams.Out
	io.Out = &lockedWriter{w: &redactWriter{w: streams.Out, secrets: io.secrets}}
	io.ErrOut = &lockedWriter{w: &redactWriter{w: streams.ErrOut, secrets: io.secrets}}
	io.heldStderr = &heldLines{}
	err := runCommand(ctx, &io, args)
	io.heldStderr.flush()    // every server has stopped by now
	io.recording.finish(&io) // every client is closed by now
	code := Report(ctx, &io, err)
	// The usage hint is for a command line gone wrong, not a config file.
	var (
		untrusted *UntrustedConfigError
		configErr *ConfigError
	)
	if code == ExitUsage && !errors.As(err, &untrusted) && !errors.As(err, &configErr) {
		fmt.Fprintf(io.ErrOut, "Run 'mcpwire help%s' for usage.\n", helpTopic(args))
	}
	return code
}

func runCommand(ctx context.Context, io *IOStreams, args []string) error {
	if len(args) == 0 {
		printUsage(io.ErrOut)
		return Usagef("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "--help", "-help":
		return help(io, rest)
	case "--version", "-version":
		name = "version"
	case CompleteName:
		// The words to complete are not this command's flags: they are
		// read as the command they belong to would read them.
		return completeWords(ctx, io, rest)
	}
	cmd := lookup(name)
	if cmd == nil {
		if strings.HasPrefix(name, "-") {
			return Usagef("flags go after the command: mcpwire COMMAND [flags] (%s is not a command)", name)
		}
		var names []string
		for _, build := range commands {
			if c := build(); !c.Hidden {
				names = append(names, c.Name)
			}
		}
		return Usagef("unknown command %q%s", name, didYouMean(name, names))
	}
	return cmd.Execute(ctx, io, rest)
}

func lookup(name string) *Command {
	for _, build := range commands {
		if c := build(); c.Name == name {
			return c
		}
	}
	return nil
}

// help prints the command list, or one command's help.
func help(io *IOStreams, args []string) error {
	switch len(args) {
	case 0:
		printUsage(io.Out)
		return nil
	case 1:
		cmd := lookup(args[0])
		if cmd == nil {
			return Usagef("no help for %q: not a command", args[0])
		}
		cmd.PrintHelp(io.Out, cmd.FlagSet())
		return nil
	}
	return Usagef("help takes at most one command name")
}

// helpTopic is " CMD" when args start with a known command, so the usage
// hint points at the right page.
func helpTopic(args []string) string {
	if len(args) > 0 && lookup(args[0]) != nil {
		return " " + args[0]
	}
	return ""
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `mcpwire talks to Model Context Protocol (MCP) servers.

Usage:
  mcpwire COMMAND [flags] [ARGS] TARGET

TARGET is the server: a URL (http:// or https://) as the last argument, or
"-- COMMAND [ARGS...]" at the very end to start a server over stdio:
  mcpwire tools https://example.com/mcp --bearer-token-env MCP_TOKEN
  mcpwire call echo --arg message=hi -- npx -y @modelcontextprotocol/server-everything

Without TARGET, commands use the servers of the config files (.mcp.json,
mcpwire.json, ...; "mcpwire servers" lists them): all of them, or one
named with --server NAME, as the first argument, or as NAME/...:
  mcpwire tools
  mcpwire resources everything
  mcpwire call github/create_issue --arg title=Bug

Commands:
`)
	for _, build := range commands {
		c := build()
		if !c.Hidden {
			fmt.Fprintf(w, "  %-11s%s\n", c.Name, c.Summary)
		}
	}
	fmt.Fprint(w, `
Exit status:
  0    success
  1    any other error
  2    usage: a bad flag or argument, an unknown tool or prompt, a broken or
       untrusted config file
  3    cannot connect: the server did not start, answer or hand-shake
  4    the tool ran and reported an error (isError)
  5    protocol: the server answered with a JSON-RPC error (-32602, ...)
  6    timeout: a request took longer than --timeout
  130  interrupted (Ctrl-C, SIGTERM)

Try "mcpwire demo" for a tour that needs no setup.
Run "mcpwire help COMMAND" (or "mcpwire COMMAND -h") for a command's flags.
`)
}

// lockedWriter serialises writes from several goroutines. It also keeps
// a server's streamed stderr line (see sanitizeWriter) from running into
// mcpwire's own: a write made while such a line is open starts on a new
// line.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	// open is the stream whose line the last write left without its
	// newline, or nil.
	open *sanitizeWriter
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.breakOpenLine(nil); err != nil {
		return 0, err
	}
	return l.w.Write(p)
}

// breakOpenLine ends the line another stream than by left open. l.mu is
// held.
func (l *lockedWriter) breakOpenLine(by *sanitizeWriter) error {
	if l.open == nil || l.open == by {
		return nil
	}
	l.open = nil
	_, err := io.WriteString(l.w, "\n")
	return err
}
