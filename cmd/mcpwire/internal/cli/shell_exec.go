package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

// shellCommands are the shell's commands, in the order help lists them.
var shellCommands = []struct{ name, usage string }{
	{"tools", "tools [TOOL]            list the tools, or show one"},
	{"call", "call TOOL [K=V ...]      call a tool (values converted by its schema)"},
	{"resources", "resources [NAME]        list the resources"},
	{"read", "read URI                read a resource"},
	{"prompts", "prompts [NAME]          list the prompts"},
	{"prompt", "prompt NAME [K=V ...]   get a prompt"},
	{"info", "info                    the server's name, version and capabilities"},
	{"log", "log LEVEL               ask for the server's log messages of LEVEL and up"},
	{"help", "help                    this list"},
	{"exit", "exit                    leave (or Ctrl-D)"},
}

// shellConnKey carries the shell's connection to the one-shot commands it
// runs (TargetFlags.Each uses it instead of connecting).
type shellConnKey struct{}

// shellConn is the shell's connection in ctx, if any.
func shellConn(ctx context.Context) (Conn, bool) {
	c, ok := ctx.Value(shellConnKey{}).(Conn)
	return c, ok
}

// exec runs one line, printing its output and any error.
func (sh *shell) exec(ctx context.Context, line string) {
	words := strings.Fields(line)
	err := sh.dispatch(ctx, words[0], words[1:])
	switch {
	case err == nil:
	case ctx.Err() != nil:
		fmt.Fprintln(sh.io.ErrOut, "mcpwire: cancelled; the server was told")
	default:
		Report(ctx, sh.io, err)
	}
}

func (sh *shell) dispatch(ctx context.Context, name string, args []string) error {
	io := sh.io
	conn := Conn{Client: sh.client, Target: sh.target}
	switch name {
	case "help":
		for _, c := range shellCommands {
			fmt.Fprintln(io.Out, c.usage)
		}
		return nil
	case "tools":
		return sh.listTools(ctx, args)
	case "call":
		if len(args) == 0 {
			return Usagef("call needs a TOOL: call TOOL [K=V ...]")
		}
		list, err := sh.toolList(ctx)
		if err != nil {
			return err
		}
		tool, err := findTool(list, args[0])
		if err != nil {
			return err
		}
		a, err := readToolArgs(strings.NewReader(""), "", args[1:])
		if err != nil {
			return err
		}
		v, err := a.build(tool.InputSchema)
		if err != nil {
			return err
		}
		return callTool(ctx, io, sh.target, sh.client, tool.Name, v, resultOptions{JSON: sh.json})
	case "log":
		if len(args) != 1 || mcp.LoggingLevel(args[0]).Severity() < 0 {
			return Usagef("log LEVEL: one of debug, info, notice, warning, error, critical, alert, emergency")
		}
		if err := sh.client.SetLogLevel(ctx, mcp.LoggingLevel(args[0])); err != nil {
			return sh.target.Explain("setting the log level", err)
		}
		fmt.Fprintf(io.ErrOut, "mcpwire: asked for log messages of level %s and up\n", args[0])
		return nil
	case "resources", "read", "prompts", "prompt", "info":
		// The one-shot command itself, on this connection.
		argv := slices.Clone(args)
		if name == "prompt" && len(argv) > 1 {
			argv = append([]string{argv[0]}, pairsAsFlags(argv[1:])...)
		}
		if sh.json {
			argv = append(argv, "--json")
		}
		for _, mk := range commands {
			if c := mk(); c.Name == name {
				return c.Execute(context.WithValue(ctx, shellConnKey{}, conn), io, argv)
			}
		}
	}
	return Usagef("unknown command %q%s (help lists them)", name, didYouMean(name, shellNames()))
}

// pairsAsFlags turns K=V words into --arg K=V.
func pairsAsFlags(pairs []string) []string {
	var out []string
	for _, p := range pairs {
		out = append(out, "--arg", p)
	}
	return out
}

func shellNames() []string {
	var names []string
	for _, c := range shellCommands {
		names = append(names, c.name)
	}
	return names
}

// listTools is "tools [TOOL]", as the one-shot command prints it.
func (sh *shell) listTools(ctx context.Context, args []string) error {
	list, err := sh.toolList(ctx)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		tool, err := findTool(list, args[0])
		if err != nil {
			return err
		}
		if sh.json {
			return WriteJSON(sh.io.Out, tool)
		}
		printToolDetail(sh.io.Out, tool)
		return nil
	}
	if sh.json {
		return WriteJSON(sh.io.Out, struct {
			Tools []mcp.Tool `json:"tools"`
		}{NonNil(list)})
	}
	printToolTable(sh.io.Out, sh.real.TableWidth(), list)
	return nil
}

// toolList is the server's tools, listed again after a list_changed.
func (sh *shell) toolList(ctx context.Context) ([]mcp.Tool, error) {
	sh.mu.Lock()
	list := sh.tools
	sh.mu.Unlock()
	if list != nil {
		return list, nil
	}
	list, err := sh.client.ListTools(ctx)
	if err != nil {
		return nil, sh.target.Explain("listing tools", err)
	}
	sh.mu.Lock()
	sh.tools = NonNil(list)
	sh.mu.Unlock()
	return list, nil
}

// candidates are the completions of the last word of line: commands,
// tool names, argument names ("K="), enum values, resource URIs, prompt
// names and log levels.
func (sh *shell) candidates(ctx context.Context, line string) []string {
	head, word := splitLastWord(line)
	fields := strings.Fields(head)
	var all []string
	switch {
	case len(fields) == 0:
		all = shellNames()
	case fields[0] == "log" && len(fields) == 1:
		all = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
	case (fields[0] == "call" || fields[0] == "tools") && len(fields) == 1:
		list, _ := sh.toolList(ctx)
		for _, t := range list {
			all = append(all, t.Name)
		}
	case fields[0] == "call":
		all = sh.argCandidates(ctx, fields[1], word)
	case fields[0] == "read" && len(fields) == 1:
		all = sh.resourceURIs(ctx)
	case (fields[0] == "prompt" || fields[0] == "prompts") && len(fields) == 1:
		all = sh.promptNames(ctx)
	}
	var out []string
	for _, c := range all {
		if strings.HasPrefix(c, word) {
			out = append(out, c)
		}
	}
	return out
}

// argCandidates are a tool's "K=" words, or after "K=" the enum's values.
func (sh *shell) argCandidates(ctx context.Context, toolName, word string) []string {
	list, _ := sh.toolList(ctx)
	i := slices.IndexFunc(list, func(t mcp.Tool) bool { return t.Name == toolName })
	if i < 0 {
		return nil
	}
	schema, ok := parseObjectSchema(list[i].InputSchema)
	if !ok {
		return nil
	}
	var out []string
	if k, _, found := strings.Cut(word, "="); found {
		for _, raw := range schema.Props[k].Enum {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				out = append(out, k+"="+s)
			}
		}
		return out
	}
	for _, name := range schema.Names {
		out = append(out, name+"=")
	}
	return out
}

func (sh *shell) resourceURIs(ctx context.Context) []string {
	return sh.cached(&sh.uris, func() ([]string, error) {
		list, err := sh.client.ListResources(ctx)
		var uris []string
		for _, r := range list {
			uris = append(uris, r.URI)
		}
		return uris, err
	})
}

func (sh *shell) promptNames(ctx context.Context) []string {
	return sh.cached(&sh.prompts, func() ([]string, error) {
		list, err := sh.client.ListPrompts(ctx)
		var names []string
		for _, p := range list {
			names = append(names, p.Name)
		}
		return names, err
	})
}

// cached is *slot, listed with list when nil (after a list_changed); a
// failed listing completes nothing and is tried again next time.
func (sh *shell) cached(slot *[]string, list func() ([]string, error)) []string {
	sh.mu.Lock()
	names := *slot
	sh.mu.Unlock()
	if names != nil {
		return names
	}
	names, err := list()
	if err != nil {
		return nil
	}
	names = NonNil(names)
	sh.mu.Lock()
	*slot = names
	sh.mu.Unlock()
	return names
}
