package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/peerschema"
	"github.com/mcpwire/mcpwire/mcp"
)

// A server may ask the client for input while it works on a request: an
// elicitation (a form to fill in, or a URL to open) or the client's roots.
// In the older eras it sends elicitation/create and roots/list; in the
// stateless era the request ends input_required (MRTR). The same
// mcp.ClientOptions handlers answer both, so the same flags do too.
//
// On a terminal (stdin and stderr both terminals) the person is asked
// (elicit_terminal.go, sampling_editor.go) unless a flag answers. In a
// script mcpwire asks nobody: a command must never hang waiting for a
// person who is not there. So the answer is chosen on the command line,
// and without a flag an elicitation is declined with a note on stderr
// that names the question and the flags. Sampling is declared only when
// someone can answer it, the person at the terminal or --sampling-cmd
// (sampling.go): a server that sees no sampling capability can take
// another way. Roots are
// declared only when --root gives some: a server that gets roots replaces
// the directories it was started with by them (server-filesystem does,
// shortly after the handshake), so a default root would quietly change
// what a server may touch, and change it part way through a command.

// InputFlags are the answers to a server's questions.
type InputFlags struct {
	// Elicit is --elicit: "" (decline, with a note), defaults, decline or
	// cancel.
	Elicit string
	// ElicitJSON is --elicit-json: accept every form with this content.
	ElicitJSON string
	// Roots are --root DIRs; none declares no roots.
	Roots StringList
	// Sampling is --sampling-cmd and --confirm-sampling (sampling.go).
	Sampling samplingFlags
}

// register adds --elicit, --elicit-json and --root to fs.
func (f *InputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.Elicit, "elicit", "", "answer a server's form (elicitation) with `HOW`: defaults (accept, every field at its schema default), decline or cancel; without it, forms are asked at a terminal, else declined with a note on stderr")
	fs.StringVar(&f.ElicitJSON, "elicit-json", "", "accept a server's form with this `JSON` object as its content (over the defaults with --elicit defaults)")
	f.Sampling.register(fs)
	fs.Var(&f.Roots, "root", "offer `DIR` as a root, the directories a server may work in (repeatable; --root . for the current one; without it no roots are offered)")
}

// answers is what the input flags resolve to.
type answers struct {
	action   string         // accept, decline or cancel; "" is decline with a note
	content  map[string]any // --elicit-json's object (accept)
	merge    bool           // defaults first, content over them
	roots    []mcp.Root
	sampling samplingFlags
	// completed are the URL elicitations the server reported complete.
	completed urlCompletions
}

// resolve checks the flags.
func (f *InputFlags) resolve() (*answers, error) {
	if err := f.Sampling.check(); err != nil {
		return nil, err
	}
	a := &answers{sampling: f.Sampling}
	switch f.Elicit {
	case "":
	case "defaults":
		a.action, a.merge = mcp.ElicitAccept, true
	case mcp.ElicitDecline, mcp.ElicitCancel:
		a.action = f.Elicit
	default:
		return nil, Usagef("--elicit must be defaults, decline or cancel, not %q", f.Elicit)
	}
	if f.ElicitJSON != "" {
		if a.action == mcp.ElicitDecline || a.action == mcp.ElicitCancel {
			return nil, Usagef("--elicit-json accepts the form; it cannot go with --elicit %s", a.action)
		}
		// Not quoted in errors: the content may hold a password.
		dec := json.NewDecoder(strings.NewReader(f.ElicitJSON))
		dec.UseNumber()
		if err := dec.Decode(&a.content); err != nil || a.content == nil || dec.More() {
			return nil, Usagef("--elicit-json must be one JSON object, such as '{\"name\": \"x\"}'")
		}
		a.action = mcp.ElicitAccept
	}
	for i, d := range f.Roots {
		root, err := dirRoot(d)
		if err != nil {
			return nil, Usagef("--root #%d: %v", i+1, err)
		}
		a.roots = append(a.roots, root)
	}
	return a, nil
}

// dirRoot is dir as a root: its absolute path as a file:// URI, named by
// its last element.
func dirRoot(dir string) (mcp.Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return mcp.Root{}, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return mcp.Root{}, pathReason(err)
	}
	if !st.IsDir() {
		return mcp.Root{}, fmt.Errorf("%s is not a directory", abs)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // C:/x on Windows: file:///C:/x
	}
	return mcp.Root{URI: u.String(), Name: filepath.Base(abs)}, nil
}

// apply sets the handlers of opts.
func (a *answers) apply(opts *mcp.ClientOptions, io *IOStreams) {
	if len(a.roots) > 0 {
		opts.InitialRoots = a.roots
	}
	a.sampling.apply(opts, io)
	opts.Elicitation = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return a.form(ctx, io, req)
	}
	opts.ElicitationURL = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return a.url(ctx, io, req)
	}
	opts.OnElicitationComplete = a.completed.complete
}

// form answers a form-mode elicitation.
func (a *answers) form(ctx context.Context, io *IOStreams, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	switch a.action {
	case "":
		if io.Prompter != nil {
			return askForm(ctx, io, req)
		}
		fmt.Fprintf(io.ErrOut, "mcpwire: %s asks: %s%s\nmcpwire: declined: no one answers forms here; answer with --elicit defaults, --elicit-json '{...}' or --elicit decline\n",
			asker(ctx), quoteQuestion(io, req.Message), formFields(req.RequestedSchema))
		return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
	case mcp.ElicitDecline, mcp.ElicitCancel:
		return &mcp.ElicitResult{Action: a.action}, nil
	}
	content := map[string]any{}
	if a.merge {
		// The pre-fill values: the merged answer is checked below.
		defaults, err := mcp.FormDefaults(req.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("mcpwire --elicit defaults: %w", err)
		}
		content = defaults
	}
	maps.Copy(content, a.content)
	if err := checkContent(req.RequestedSchema, content); err != nil {
		// Like an --arg that does not fit a tool: a usage error, and the
		// answer is not sent. In the older eras the server gets the error
		// and the command goes on, so it is told here too.
		misfit := Usagef("the answer to %s's form %s does not fit it: %s", asker(ctx), quoteQuestion(io, req.Message), Sanitize(oneLine(err.Error())))
		if o, ok := mcp.OriginOf(ctx); !ok || o.Client == nil || o.Client.ProtocolVersion() != mcp.ModernProtocolVersion {
			fmt.Fprintf(io.ErrOut, "mcpwire: %s\n", misfit)
		}
		return nil, misfit
	}
	return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: content}, nil
}

// url answers a URL-mode elicitation. At a terminal the person is asked
// (elicit_url_terminal.go). Otherwise mcpwire opens no browser for a
// server, so the URL is shown for the user to open by hand, and the
// elicitation is declined (cancelled with --elicit cancel).
func (a *answers) url(ctx context.Context, io *IOStreams, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if a.action == "" && io.Prompter != nil {
		return askURL(ctx, io, &a.completed, req)
	}
	action := mcp.ElicitDecline
	if a.action == mcp.ElicitCancel {
		action = mcp.ElicitCancel
	}
	fmt.Fprintf(io.ErrOut, "mcpwire: %s asks you to open a URL: %s\nmcpwire:   %s\nmcpwire: %sd: mcpwire opens no URL for a server; open it yourself if you trust it, then run the command again\n",
		asker(ctx), quoteQuestion(io, req.Message), sanitizeLine(io.Redact(req.URL)), action)
	return &mcp.ElicitResult{Action: action}, nil
}

// asker names the server that asked: a configured server by its name.
func asker(ctx context.Context) string {
	if o, ok := mcp.OriginOf(ctx); ok && o.Server != "" {
		return fmt.Sprintf("server %q", o.Server)
	}
	return "the server"
}

// quoteQuestion is a server's message as shown on the terminal: one line,
// escape sequences taken out, at most 300 characters.
func quoteQuestion(io *IOStreams, msg string) string {
	s := oneLine(io.Redact(msg))
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return fmt.Sprintf("%q", Sanitize(s))
}

// formFields lists the form's fields, " (fields: a, b)", so that the user
// knows what --elicit-json should hold.
func formFields(schema json.RawMessage) string {
	s, ok := parseObjectSchema(schema)
	if !ok || len(s.Names) == 0 {
		return ""
	}
	return " (fields: " + Sanitize(strings.Join(s.Names, ", ")) + ")"
}

// checkContent validates content against the form's schema
// (peerschema.CheckForm, which the inspector's page uses too): each field
// that does not fit and why, never a value of the answer.
func checkContent(schema json.RawMessage, content map[string]any) error {
	return peerschema.CheckForm(schema, content)
}

// inputNote says, after an error that a server asked for input mcpwire
// does not offer (the stateless era's input requests), why, and how to
// offer it where a flag can.
func inputNote(err error) string {
	var in *mcp.InputError
	switch {
	case !errors.As(err, &in):
	case errors.Is(err, mcp.ErrSamplingRejected):
		// declined at the terminal: nothing to add
	case strings.Contains(in.Asked, "sampling"):
		return " (mcpwire has no model to answer sampling with: answer it with --sampling-cmd CMD, or at a terminal)"
	case strings.Contains(in.Asked, "roots"):
		return " (offer roots with --root DIR)"
	}
	return ""
}
