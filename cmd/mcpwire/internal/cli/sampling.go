package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

// Sampling: a server asks the client's model for a reply. mcpwire has no
// model, so the reply comes from a person or a program: on a terminal the
// person writes it in $EDITOR (or declines), and --sampling-cmd hands the
// request to a command that prints the result, in scripts too. With
// neither, sampling is not declared, and a server can take another way.

// samplingFlags are --sampling-cmd and --confirm-sampling.
type samplingFlags struct {
	Cmd     string
	Confirm bool
}

func (f *samplingFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.Cmd, "sampling-cmd", "", "answer a server's sampling request with `CMD`, a shell command that reads the request as JSON on stdin and prints the result (a CreateMessageResult) as JSON")
	fs.BoolVar(&f.Confirm, "confirm-sampling", false, "show --sampling-cmd's reply at the terminal and send it only when approved")
}

// check refuses --confirm-sampling where nobody can confirm.
func (f *samplingFlags) check() error {
	if f.Confirm && f.Cmd == "" {
		return Usagef("--confirm-sampling approves --sampling-cmd's replies; give --sampling-cmd CMD too")
	}
	return nil
}

// applySampling declares sampling when someone can answer it: a command,
// or a person at the terminal.
func (f *samplingFlags) apply(opts *mcp.ClientOptions, io *IOStreams) {
	if f.Cmd == "" && io.Prompter == nil {
		return
	}
	opts.Sampling = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return f.answer(ctx, io, req)
	}
}

// answer answers one sampling request.
func (f *samplingFlags) answer(ctx context.Context, io *IOStreams, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if f.Cmd != "" {
		res, err := runSamplingCmd(ctx, f.Cmd, req)
		if err != nil {
			// A command killed because the call ended (Ctrl-C, a
			// deadline) did not fail: the call's own error says why.
			if ctx.Err() == nil {
				fmt.Fprintf(io.ErrOut, "mcpwire: --sampling-cmd: %s\n", Sanitize(io.Redact(err.Error())))
			}
			return nil, err
		}
		if !f.Confirm {
			return res, nil
		}
		if io.Prompter == nil {
			fmt.Fprintf(io.ErrOut, "mcpwire: declined %s's sampling request: --confirm-sampling needs a terminal to ask on\n", asker(ctx))
			return nil, mcp.ErrSamplingRejected
		}
		return confirmSampling(ctx, io, req, res)
	}
	return editSampling(ctx, io, req)
}

// confirmSampling shows the request and the command's reply, and sends
// the reply only when the person approves it.
func confirmSampling(ctx context.Context, io *IOStreams, req *mcp.CreateMessageRequest, res *mcp.CreateMessageResult) (*mcp.CreateMessageResult, error) {
	detail := samplingSummary(io, req) + "\n\nThe reply of --sampling-cmd (model " + sanitizeLine(res.Model) + "):\n" + replyIndent + contentText(io, res.Content, replyIndent)
	var choice int
	err := io.ask(func(p Prompter) error {
		var err error
		choice, err = p.Select(ctx, Sanitize(asker(ctx))+" asks for a model's reply (sampling)", detail, []string{"send this reply", "decline"})
		return err
	})
	if err != nil || choice != 0 {
		fmt.Fprintf(io.ErrOut, "mcpwire: declined %s's sampling request\n", asker(ctx))
		return nil, mcp.ErrSamplingRejected
	}
	return res, nil
}

// samplingSummary shows what a sampling request asks: the system prompt,
// the messages, the model preferences, max tokens and tools.
func samplingSummary(io *IOStreams, req *mcp.CreateMessageRequest) string {
	var b strings.Builder
	if req.SystemPrompt != "" {
		fmt.Fprintf(&b, "System prompt: %s\n", sanitizeIndented(io.Redact(req.SystemPrompt), replyIndent))
	}
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "%s: %s\n", sanitizeLine(string(m.Role)), contentText(io, m.Content, replyIndent))
	}
	if p := req.ModelPreferences; p != nil {
		var hints []string
		for _, h := range p.Hints {
			hints = append(hints, sanitizeLine(h.Name))
		}
		fmt.Fprintf(&b, "Model preferences: hints %s; cost %s, speed %s, intelligence %s\n",
			orNone(strings.Join(hints, ", ")), priority(p.CostPriority), priority(p.SpeedPriority), priority(p.IntelligencePriority))
	}
	fmt.Fprintf(&b, "Max tokens: %d", req.MaxTokens)
	if req.Temperature != nil {
		fmt.Fprintf(&b, "; temperature %s", formatNumber(*req.Temperature))
	}
	if len(req.Tools) > 0 {
		var names []string
		for _, t := range req.Tools {
			names = append(names, sanitizeLine(t.Name))
		}
		fmt.Fprintf(&b, "\nTools: %s", strings.Join(names, ", "))
	}
	return b.String()
}

// replyIndent indents the lines of a server's text after the first in
// the sampling summary (and the whole reply), which leaves the start of a
// line to mcpwire's own labels.
const replyIndent = "  "

// contentText is sampling content as text: text blocks as they are,
// others by their kind; every line after the first indented by indent.
func contentText(io *IOStreams, c mcp.SamplingContent, indent string) string {
	var parts []string
	for _, block := range c {
		if block.Type == mcp.ContentText {
			parts = append(parts, sanitizeIndented(io.Redact(block.Text), indent))
			continue
		}
		parts = append(parts, fmt.Sprintf("[%s %s]", sanitizeLine(block.Type), sanitizeLine(block.MimeType)))
	}
	return strings.Join(parts, "\n"+indent)
}

func priority(p *float64) string {
	if p == nil {
		return "-"
	}
	return formatNumber(*p)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
