package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/mcp"
)

// askForm answers a form-mode elicitation by asking the person at the
// terminal. The answer is checked against the whole schema before it is
// sent (the fields' own checks cannot see everything a schema says); an
// answer that does not fit is asked again. Ctrl-C cancels the
// elicitation, and the command goes on with the server's reply to that.
func askForm(ctx context.Context, io *IOStreams, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	spec, err := parseForm(req.RequestedSchema)
	if err != nil {
		fmt.Fprintf(io.ErrOut, "mcpwire: %s asks: %s\nmcpwire: declined: the form cannot be shown: %s\n", asker(ctx), quoteQuestion(io, req.Message), err)
		return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
	}
	heading := Sanitize(asker(ctx)) + " asks:"
	message := sanitizeQuoted(io.Redact(req.Message), "  ") // not to pass for a heading
	for {
		var action string
		var answer formAnswer
		err := io.ask(func(p Prompter) error {
			var err error
			action, answer, err = p.Form(ctx, heading, message, spec)
			return err
		})
		switch {
		case errors.Is(err, errPromptCancelled):
			fmt.Fprintf(io.ErrOut, "mcpwire: cancelled the form of %s\n", asker(ctx))
			return &mcp.ElicitResult{Action: mcp.ElicitCancel}, nil
		case err != nil:
			return nil, err
		case action != mcp.ElicitAccept:
			fmt.Fprintf(io.ErrOut, "mcpwire: %s the form of %s\n", map[string]string{mcp.ElicitDecline: "declined", mcp.ElicitCancel: "cancelled"}[action], asker(ctx))
			return &mcp.ElicitResult{Action: action}, nil
		}
		content := spec.content(answer)
		if err := checkContent(req.RequestedSchema, content); err != nil {
			fmt.Fprintf(io.ErrOut, "mcpwire: the answer does not fit the form: %s; asking again\n", Sanitize(oneLine(err.Error())))
			// Asked again with what was typed in place, to correct
			// rather than type again.
			spec = spec.prefilled(answer)
			continue
		}
		return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: content}, nil
	}
}
