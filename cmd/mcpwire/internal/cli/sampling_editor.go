package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

// replyMarker ends the reply in the file the editor opens: the request is
// shown below it, for reference, and dropped.
const replyMarker = "# mcpwire: write the reply above this line; this line and everything below it are dropped."

// editSampling shows a sampling request to the person at the terminal,
// who writes the reply in $EDITOR or declines. An empty reply declines.
func editSampling(ctx context.Context, io *IOStreams, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	summary := samplingSummary(io, req)
	var text string
	err := io.ask(func(p Prompter) error {
		choice, err := p.Select(ctx, Sanitize(asker(ctx))+" asks for a model's reply (sampling)", summary,
			[]string{"write the reply in " + editorName(), "decline"})
		if err != nil || choice != 0 {
			return errPromptCancelled
		}
		edited, err := p.Edit(ctx, "\n"+replyMarker+"\n#\n# "+strings.ReplaceAll(summary, "\n", "\n# ")+"\n")
		if err != nil {
			return err
		}
		text, _, _ = strings.Cut(edited, replyMarker)
		text = strings.TrimSpace(text)
		return nil
	})
	switch {
	case err == errPromptCancelled || (err == nil && text == ""):
		fmt.Fprintf(io.ErrOut, "mcpwire: declined %s's sampling request\n", asker(ctx))
		return nil, mcp.ErrSamplingRejected
	case err != nil && ctx.Err() != nil:
		// The call ended under the editor (Ctrl-C, SIGTERM): its own
		// error says so.
		return nil, mcp.ErrSamplingRejected
	case err != nil:
		fmt.Fprintf(io.ErrOut, "mcpwire: declined %s's sampling request: %s\n", asker(ctx), Sanitize(err.Error()))
		return nil, mcp.ErrSamplingRejected
	}
	return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Content: mcp.SamplingContent{mcp.TextContent(text)}, Model: "mcpwire-user", StopReason: mcp.StopEndTurn}, nil
}
