package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

func newPromptsCommand() *Command {
	return &Command{
		Name:    "prompts",
		Summary: "list the server's prompts",
		Usage:   "prompts [flags] [TARGET]",
		Description: `List the prompts the server offers: name, arguments (required ones
marked with *) and a one-line description. Fetch one with
"mcpwire prompt NAME --arg K=V TARGET". With --json, print {"prompts": [...]}.
Without TARGET, list those of every configured server, or of one with
--server NAME (or "mcpwire prompts NAME").`,
		Options: func() Options {
			return &viewOptions{formats: []string{"table", "json"}, show: showPrompts, many: &jsonDocs{lists: [][2]string{{"prompts", "prompt"}}}}
		},
	}
}

func showPrompts(ctx context.Context, io *IOStreams, v view) error {
	var (
		list []mcp.Prompt
		err  error
	)
	if v.Client.ServerCapabilities().Prompts != nil {
		if list, err = v.Client.ListPrompts(ctx); err != nil {
			return v.Target.Explain("listing prompts", err)
		}
	}
	if v.Format == "json" {
		return WriteJSON(io.Out, struct {
			Prompts []mcp.Prompt `json:"prompts"`
		}{NonNil(list)})
	}
	printPromptTable(io.Out, v.Width, list)
	return nil
}

func printPromptTable(w io.Writer, width int, list []mcp.Prompt) {
	if len(list) == 0 {
		fmt.Fprintln(w, "(no prompts)")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, p := range list {
		rows = append(rows, []string{p.Name, promptArguments(p.Arguments), Describe(p.Name, p.Title, p.Description)})
	}
	Table(w, width, []string{"NAME", "ARGUMENTS", "DESCRIPTION"}, rows)
}

// promptArguments lists argument names, required ones with a trailing "*".
func promptArguments(args []mcp.PromptArgument) string {
	if len(args) == 0 {
		return "-"
	}
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Name
		if a.Required {
			names[i] += "*"
		}
	}
	return strings.Join(names, ",")
}
