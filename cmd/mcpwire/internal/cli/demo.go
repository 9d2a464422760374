package cli

// "mcpwire demo" is a tour that needs no setup: it starts
// the built-in example server (package mcptest) as a real child process
// over stdio, by running the mcpwire binary itself with the hidden
// __serve-mcptest command, and shows what the other commands do with it.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// newDemoCommand builds the command.
func newDemoCommand() *Command {
	return &Command{
		Name:    "demo",
		Summary: "a tour against the built-in example server (no setup needed)",
		Usage:   "demo [--timeout D] [--verbose]",
		Description: `Start the built-in example server as a child process over stdio (the
mcpwire binary itself, run as "mcpwire ` + ServeName + `"), then show the
handshake, list its tools, call "echo", call "slow" with live progress, and
call "add", whose answer carries structured content. Each step names the
command that does the same against any server.`,
		Options: func() Options { return &demoOptions{} },
	}
}

// demoOptions are the command's flags.
type demoOptions struct {
	Server ServerFlags
}

func (o *demoOptions) Flags(fs *flag.FlagSet) {
	fs.Var((*durationFlag)(&o.Server.Timeout), "timeout", "per-request timeout `DURATION` (5s, 1m; 0 disables it)")
	o.Server.Timeout = jsonrpc.DefaultTimeout
	fs.BoolVar(&o.Server.Verbose, "verbose", false, "show the example server's stderr and log messages")
	o.Server.registerRecord(fs)
}

func (o *demoOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if len(p.Args) > 0 || p.Dash {
		return Usagef("demo takes no server: it starts its own")
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the mcpwire binary to start the example o.Server: %w", err)
	}
	o.Server.Transport = "auto"
	t, _, err := o.Server.Resolve(io, Parsed{Dash: true, Command: []string{exe, ServeName}})
	if err != nil {
		return err
	}
	return tour(ctx, io, t, demoProgram(exe))
}

// demoProgram is how to run this mcpwire in the commands the demo prints,
// so that each one runs when pasted: "mcpwire" when that is this binary
// on $PATH; under "go run", whose binary is deleted when it exits, "go
// run" of the package; otherwise the binary's path.
func demoProgram(exe string) string {
	if strings.Contains(filepath.ToSlash(exe), "/go-build") {
		if _, err := os.Stat(filepath.Join("cmd", "mcpwire", "main.go")); err == nil {
			return "go run ./cmd/mcpwire"
		}
		return "go run github.com/mcpwire/mcpwire/cmd/mcpwire"
	}
	if onPath, err := exec.LookPath("mcpwire"); err == nil {
		a, errA := os.Stat(onPath)
		b, errB := os.Stat(exe)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return "mcpwire"
		}
	}
	return shellQuote(exe)
}

// Steps of the tour: the tool, its arguments, and why it is shown.
var (
	echoArgs = map[string]any{"message": "Hello from mcpwire!"}
	slowArgs = map[string]any{"steps": 5, "delay_ms": 300}
	addArgs  = map[string]any{"a": 2, "b": 3}
)

func tour(ctx context.Context, io *IOStreams, t *Target, self string) error {
	out := io.Out
	// Each step shows a command that runs as printed.
	demoTarget := "-- " + self + " " + ServeName
	fmt.Fprintf(out, "mcpwire demo: starting the example server as a child process over stdio\n(mcpwire %s), then talking MCP to it.\n", ServeName)

	c, err := Connect(ctx, io, t)
	if err != nil {
		return err
	}
	defer c.Close()

	step(io, "The handshake", self+" info "+demoTarget)
	printInfo(out, c)

	step(io, "Its tools", self+" tools "+demoTarget)
	list, err := c.ListTools(ctx)
	if err != nil {
		return t.Explain("listing tools", err)
	}
	printToolTable(out, io.TableWidth(), list)

	calls := []struct {
		title, tool string
		args        map[string]any
		structured  bool
	}{
		{"A simple call", "echo", echoArgs, false},
		{"A slow call, reporting progress (on stderr)", "slow", slowArgs, false},
		{"A call that returns structured content (shown with --structured)", "add", addArgs, true},
	}
	for _, s := range calls {
		flags := argFlags(s.args)
		if s.structured {
			flags += " --structured"
		}
		step(io, s.title, self+" call "+s.tool+flags+" "+demoTarget)
		if err := callTool(ctx, io, t, c, s.tool, s.args, resultOptions{Structured: s.structured}); err != nil {
			return err
		}
	}

	fmt.Fprintf(out, `
That was all real MCP over a child process's stdin and stdout. Point
mcpwire at your own server the same way, for example:
  %[1]s tools -- npx -y @modelcontextprotocol/server-everything
  %[1]s tools https://example.com/mcp --bearer-token-env MCP_TOKEN
`, self)
	return nil
}

// step prints a section header naming the equivalent command.
func step(io *IOStreams, title, cmd string) {
	fmt.Fprintf(io.Out, "\n== %s\n$ %s\n", title, cmd)
}

// argFlags renders arguments as the --arg flags that would pass them.
func argFlags(args map[string]any) string {
	s := ""
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v, _ := json.Marshal(args[k])
		if str, ok := args[k].(string); ok {
			s += fmt.Sprintf(" --arg '%s=%s'", k, str)
			continue
		}
		s += fmt.Sprintf(" --arg %s=%s", k, v)
	}
	return s
}
