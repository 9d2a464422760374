package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/mcpwire/mcpwire/config"
)

// askMissingInputs asks the person at the terminal for the VS Code
// ${input:ID} values the config uses and nothing supplied (neither
// --input nor MCPWIRE_INPUT_<ID>), each once however many servers use it,
// hidden as typed when the input says "password": true. It returns
// inputs with the answers added, or nil when nothing was asked (no
// terminal, nothing missing): the caller then keeps the config it loaded.
// The values are secrets from then on, masked in all output.
//
// Ctrl-C stops the asking; the inputs left unanswered make their servers
// fail as they do in a script, with the note that says how to give them.
func askMissingInputs(streams *IOStreams, set *config.Set, inputs map[string]string) map[string]string {
	if streams.Prompter == nil || set == nil {
		return nil
	}
	var missing []*config.MissingInputError
	seen := map[string]bool{}
	for _, p := range set.Problems {
		var m *config.MissingInputError
		if errors.As(p.Err, &m) && !seen[m.ID] {
			seen[m.ID] = true
			missing = append(missing, m)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	out := maps.Clone(inputs)
	if out == nil {
		out = map[string]string{}
	}
	for _, m := range missing {
		question := fmt.Sprintf("Config input %q", Sanitize(m.ID))
		if m.Description != "" {
			question += ": " + Sanitize(m.Description)
		}
		detail := "in scripts: --input " + Sanitize(m.ID) + "=VALUE or " + m.EnvName
		if m.Password {
			detail = "hidden as typed; " + detail
		}
		var value string
		// Loading the config takes no context; the prompt ends with the
		// person's answer or Ctrl-C.
		err := streams.ask(func(p Prompter) error {
			var err error
			value, err = p.Input(context.Background(), question, detail, m.Password)
			return err
		})
		if err != nil {
			break
		}
		streams.AddSecret(value)
		out[m.ID] = value
	}
	return out
}
