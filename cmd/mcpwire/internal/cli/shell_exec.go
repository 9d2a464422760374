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
	{"servers", "servers                 the configured servers and their status"},
	{"use", "use [SERVER]            act on SERVER (configured); alone: on all of them"},
	{"help", "help                    this list"},
	{"exit", "exit                    leave (or quit, or Ctrl-D)"},
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
	words, err := shellWords(line)
	if err == nil && len(words) > 0 {
		err = sh.dispatch(ctx, words[0], words[1:])
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		fmt.Fprintln(sh.io.ErrOut, "mcpwire: cancelled; the server was told")
	default:
		Report(ctx, sh.io, inShellTerms(err))
	}
}

func (sh *shell) dispatch(ctx context.Context, name string, args []string) error {
	io := sh.io
	switch name {
	case "help":
		for _, c := range shellCommands {
			if sh.servers != nil || !configuredOnly(c.name) {
				fmt.Fprintln(io.Out, c.usage)
			}
		}
		return nil
	case "exit", "quit":
		// Alone on the line they end the session before dispatch.
		return Usagef("%s takes no arguments", name)
	case "servers":
		return sh.showServers(args)
	case "use":
		return sh.use(ctx, args)
	case "tools":
		return sh.listTools(ctx, args)
	case "call":
		if len(args) == 0 {
			return Usagef("call needs a TOOL: call TOOL [K=V ...]")
		}
		conn, tool, err := sh.callTarget(ctx, args[0])
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
		return callTool(ctx, io, conn.Target, conn.Client, tool.Name, v, resultOptions{JSON: sh.json})
	case "log":
		if len(args) != 1 || mcp.LoggingLevel(args[0]).Severity() < 0 {
			return Usagef("log LEVEL: one of debug, info, notice, warning, error, critical, alert, emergency")
		}
		conn, err := sh.conn(ctx)
		if err != nil {
			return err
		}
		if err := conn.Client.SetLogLevel(ctx, mcp.LoggingLevel(args[0])); err != nil {
			return conn.Target.Explain("setting the log level", err)
		}
		fmt.Fprintf(io.ErrOut, "mcpwire: asked for log messages of level %s and up\n", args[0])
		return nil
	case "resources", "read", "prompts", "prompt", "info":
		// The one-shot command itself, on this connection.
		if err := noShellFlags(name, args); err != nil {
			return err
		}
		conn, err := sh.conn(ctx)
		if err != nil {
			return err
		}
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

// noShellFlags refuses the one-shot command's flags in the shell, where
// they would be parsed and ignored (--timeout, --record, a TARGET after
// --) or mean something else (--json is the shell's own). read keeps
// --output FILE, which writes a resource's bytes to a file.
func noShellFlags(name string, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		if name == "read" && (a == "--output" || a == "-output") && i+1 < len(args) {
			i++
			continue
		}
		if name == "read" && (strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-output=")) {
			continue
		}
		hint := ""
		if name == "read" {
			hint = " but --output FILE"
		}
		flagName, _, _ := strings.Cut(a, "=") // never its value: it may be a secret
		return Usagef("%s takes no flags%s in the shell (%s): the shell's connection and its --json apply", name, hint, Sanitize(flagName))
	}
	return nil
}

// configuredOnly reports whether the command works only on the
// configured servers.
func configuredOnly(name string) bool { return name == "servers" || name == "use" }

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
	if len(args) == 0 && sh.allServers() {
		return sh.listAllTools()
	}
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

// toolList is the current server's tools, listed again after a
// list_changed; on every configured server, all their tools under their
// model-facing names.
func (sh *shell) toolList(ctx context.Context) ([]mcp.Tool, error) {
	if sh.allServers() {
		return sh.allTools(), nil
	}
	sh.mu.Lock()
	list := sh.tools
	sh.mu.Unlock()
	if list != nil {
		return list, nil
	}
	conn, err := sh.conn(ctx)
	if err != nil {
		return nil, err
	}
	list, err = conn.Client.ListTools(ctx)
	if err != nil {
		return nil, conn.Target.Explain("listing tools", err)
	}
	sh.mu.Lock()
	sh.tools = NonNil(list)
	sh.mu.Unlock()
	return list, nil
}

// candidates are the completions of the last word of line: commands,
// tool names, argument names ("K="), enum values, resource URIs, prompt
// names and log levels. A server's word that cannot be typed as one, or
// that would steer the terminal (see completable), is left out: the
// candidates are printed and put on the line as they are.
func (sh *shell) candidates(ctx context.Context, line string) []string {
	head, word := splitLastWord(line)
	fields, err := shellWords(head)
	if err != nil {
		return nil // inside a quote: nothing to offer
	}
	var all []string
	switch {
	case len(fields) == 0:
		all = shellNames()
	case fields[0] == "use" && len(fields) == 1:
		all = sh.serverNames()
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
		if strings.HasPrefix(c, word) && completable(c) {
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
	return sh.cached(ctx, &sh.uris, func(c *mcp.Client) ([]string, error) {
		list, err := c.ListResources(ctx)
		var uris []string
		for _, r := range list {
			uris = append(uris, r.URI)
		}
		return uris, err
	})
}

func (sh *shell) promptNames(ctx context.Context) []string {
	return sh.cached(ctx, &sh.prompts, func(c *mcp.Client) ([]string, error) {
		list, err := c.ListPrompts(ctx)
		var names []string
		for _, p := range list {
			names = append(names, p.Name)
		}
		return names, err
	})
}

// cached is *slot, listed with list on the current server when nil
// (after a list_changed or a use); a failed listing completes nothing and
// is tried again next time.
func (sh *shell) cached(ctx context.Context, slot *[]string, list func(c *mcp.Client) ([]string, error)) []string {
	sh.mu.Lock()
	names := *slot
	sh.mu.Unlock()
	if names != nil {
		return names
	}
	conn, err := sh.conn(ctx)
	if err != nil {
		return nil
	}
	names, err = list(conn.Client)
	if err != nil {
		return nil
	}
	names = NonNil(names)
	sh.mu.Lock()
	*slot = names
	sh.mu.Unlock()
	return names
}
