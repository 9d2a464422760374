package cli

import (
	"context"
	"flag"
	"fmt"
)

func newCompletionCommand() *Command {
	return &Command{
		Name:    "completion",
		Summary: "print the shell completion script for bash, zsh or fish",
		Usage:   "completion bash|zsh|fish",
		Description: `Print a script that completes mcpwire's commands, each command's
flags and their values, and the names of the configured servers' tools,
prompts and resources (call SERVER/<TAB>). Load it for this shell:

  source <(mcpwire completion bash)
  source <(mcpwire completion zsh)
  mcpwire completion fish | source

or for every new one, by writing it where the shell looks:

  mcpwire completion bash > ~/.local/share/bash-completion/completions/mcpwire
  mcpwire completion zsh > "${fpath[1]}/_mcpwire"
  mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish

Names come from the servers of the config files, as the commands find
them. A server of a project file (.mcp.json, ...) is never started by a
completion: its tools complete once a command has used it (from the tool
cache). Other servers are asked, for two seconds at most.`,
		Options: func() Options { return &completionOptions{} },
	}
}

// completionOptions are "mcpwire completion"'s (it has no flags).
type completionOptions struct{}

func (o *completionOptions) Flags(*flag.FlagSet) {}

func (o *completionOptions) Run(_ context.Context, io *IOStreams, p Parsed) error {
	if len(p.Args) != 1 || p.Dash {
		return Usagef("name one shell: bash, zsh or fish")
	}
	script, ok := completionScripts[p.Args[0]]
	if !ok {
		return Usagef("no completion for %q: bash, zsh or fish", p.Args[0])
	}
	_, err := fmt.Fprint(io.Out, script)
	return err
}
