// Package root is mcpwire's entry point: it picks the subcommand, runs it
// and turns its error into the exit code and the one line on stderr.
package root

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/cli/call"
	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/internal/cli/demo"
	"github.com/mcpwire/mcpwire/internal/cli/info"
	"github.com/mcpwire/mcpwire/internal/cli/login"
	"github.com/mcpwire/mcpwire/internal/cli/ping"
	"github.com/mcpwire/mcpwire/internal/cli/prompt"
	"github.com/mcpwire/mcpwire/internal/cli/prompts"
	"github.com/mcpwire/mcpwire/internal/cli/read"
	"github.com/mcpwire/mcpwire/internal/cli/resources"
	"github.com/mcpwire/mcpwire/internal/cli/servers"
	"github.com/mcpwire/mcpwire/internal/cli/tools"
	"github.com/mcpwire/mcpwire/internal/cli/version"
)

// commands builds every subcommand, in the order "mcpwire help" lists them.
// Each is built fresh per run because a Command keeps its flag values.
var commands = []func() *cliutil.Command{
	servers.New,
	tools.New,
	call.New,
	resources.New,
	read.New,
	prompts.New,
	prompt.New,
	info.New,
	ping.New,
	login.New,
	login.NewLogout,
	login.NewAuth,
	demo.New,
	version.New,
	demo.NewServe,
}

// Main runs mcpwire with args (without the program name) and returns the
// exit code. ctx ends the run early (main cancels it on Ctrl-C); an ended
// ctx is reported as an interruption.
func Main(ctx context.Context, streams *cliutil.IOStreams, args []string) int {
	io := *streams
	// Server stderr, progress, log messages and the command itself may all
	// write at once; each write lands whole.
	io.Out = &lockedWriter{w: streams.Out}
	io.ErrOut = &lockedWriter{w: streams.ErrOut}
	err := run(ctx, &io, args)
	code := cliutil.Report(ctx, &io, err)
	if code == cliutil.ExitUsage {
		fmt.Fprintf(io.ErrOut, "Run 'mcpwire help%s' for usage.\n", helpTopic(args))
	}
	return code
}

func run(ctx context.Context, io *cliutil.IOStreams, args []string) error {
	if len(args) == 0 {
		printUsage(io.ErrOut)
		return cliutil.Usagef("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "--help", "-help":
		return help(io, rest)
	case "--version", "-version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		if strings.HasPrefix(name, "-") {
			return cliutil.Usagef("flags go after the command: mcpwire COMMAND [flags] (%s is not a command)", name)
		}
		return cliutil.Usagef("unknown command %q", name)
	}
	return cmd.Execute(ctx, io, rest)
}

func lookup(name string) *cliutil.Command {
	for _, build := range commands {
		if c := build(); c.Name == name {
			return c
		}
	}
	return nil
}

// help prints the command list, or one command's help.
func help(io *cliutil.IOStreams, args []string) error {
	switch len(args) {
	case 0:
		printUsage(io.Out)
		return nil
	case 1:
		cmd := lookup(args[0])
		if cmd == nil {
			return cliutil.Usagef("no help for %q: not a command", args[0])
		}
		cmd.PrintHelp(io.Out, cmd.FlagSet())
		return nil
	}
	return cliutil.Usagef("help takes at most one command name")
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

Without TARGET, "tools" and "call" use the servers of the config files
(.mcp.json, mcpwire.json, ...; "mcpwire servers" lists them):
  mcpwire tools
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
Try "mcpwire demo" for a tour that needs no setup.
Run "mcpwire help COMMAND" (or "mcpwire COMMAND -h") for a command's flags.
`)
}

// lockedWriter serialises writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
