package cli

// "mcpwire trust": show what a project config file would run and read,
// and record the user's approval of exactly that content.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/config"
)

// newTrustCommand builds the command.
func newTrustCommand() *Command {
	return &Command{
		Name:    "trust",
		Summary: "review a project's config file and approve its servers",
		Usage:   "trust [--yes] [FILE]...",
		Description: `A config file found in the current directory (.mcp.json, mcpwire.json,
mcp.json, .vscode/mcp.json, .cursor/mcp.json, .gemini/settings.json,
.zed/settings.json) came with the project, not from you: until you approve
it, none of its servers is started or connected and none of its ${VAR}
references is read. "mcpwire servers" lists them as untrusted.

trust shows, for each server of FILE, its command and arguments or its
URL, the names of its headers and environment entries (never their
values), whether it inherits your whole environment, the environment
variables it would read and the token files a sign-in would send, then
asks, file by file: a "no" leaves that file unapproved. The
approval is kept in $XDG_STATE_HOME/mcpwire/trusted-configs.json
(~/.local/state/mcpwire without XDG_STATE_HOME), keyed by the file's
absolute path and the SHA-256 of the content shown: an edited file is
untrusted again. Without FILE, the project files of the current directory
are reviewed.

--yes approves without asking, for scripts; without it, trust asks on a
terminal and refuses otherwise. A file named with --config is trusted for
that command, and MCPWIRE_TRUST_PROJECT=1 trusts every project file (for
CI).`,
		Options: func() Options { return &trustOptions{} },
	}
}

// trustOptions are the command's flags.
type trustOptions struct {
	Yes bool
	// interactive reports whether the user can be asked; nil means
	// standard input is a terminal.
	interactive func(io *IOStreams) bool
	// answers reads the user's answers, one line each.
	answers *bufio.Reader
}

func (o *trustOptions) Flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.Yes, "yes", false, "approve without asking")
}

func (o *trustOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if p.Dash {
		return Usagef("trust takes config files, not a -- COMMAND")
	}
	files := p.Args
	if len(files) == 0 {
		files = existingProjectFiles()
		if len(files) == 0 {
			return Usagef("no project config file in this directory (trust FILE names one)")
		}
	}
	var opts config.LoadOptions
	// Each file is reviewed and decided on its own: a "no" to one, or no
	// terminal to ask on, leaves it unapproved and goes on to the next,
	// so that one run shows every file the project holds.
	var refused, unasked []string
	for i, f := range files {
		in, err := config.Inspect(f, opts)
		if err != nil {
			return Usagef("%s", err.Error())
		}
		if i > 0 {
			fmt.Fprintln(io.Out)
		}
		if ok, err := config.Trusted(in.File, in.SHA256, opts); err != nil {
			return err
		} else if ok {
			fmt.Fprintf(io.Out, "%s is trusted already, as it is now.\n", Sanitize(in.File))
			continue
		}
		describeInspection(io.Out, in)
		if !o.Yes {
			approved, asked := o.ask(io, in.File)
			if !asked {
				unasked = append(unasked, in.File)
				continue
			}
			if !approved {
				refused = append(refused, in.File)
				continue
			}
		}
		if err := config.Approve(in.File, in.SHA256, opts); err != nil {
			return err
		}
		fmt.Fprintf(io.Out, "Trusted %s.\n", Sanitize(in.File))
	}
	if len(unasked) > 0 {
		quoted := make([]string, len(unasked))
		for i, f := range unasked {
			quoted[i] = shellQuote(f)
		}
		return Usagef("not approved: standard input is not a terminal to ask on (approve with %q)", "mcpwire trust --yes "+strings.Join(quoted, " "))
	}
	if len(refused) > 0 {
		return fmt.Errorf("%s %w", strings.Join(refused, ", "), errNotApproved)
	}
	return nil
}

// existingProjectFiles are the project config files that exist in the
// working directory, in discovery order.
func existingProjectFiles() []string {
	var out []string
	for _, l := range config.Locations(config.LoadOptions{}) {
		if l.Scope != config.ScopeProject {
			continue
		}
		if st, err := os.Stat(l.File); err == nil && st.Mode().IsRegular() {
			out = append(out, l.File)
		}
	}
	return out
}

// errNotApproved is the answer no.
var errNotApproved = errors.New("not approved")

// ask asks whether to approve file; only "y" or "yes" approves. asked is
// false when there is no terminal to ask on.
func (o *trustOptions) ask(streams *IOStreams, file string) (approved, asked bool) {
	interactive := o.interactive
	if interactive == nil {
		interactive = stdinIsTerminal
	}
	if !interactive(streams) {
		return false, false
	}
	fmt.Fprintf(streams.ErrOut, "Trust %s? Its commands will run with your environment. [y/N] ", Sanitize(file))
	// One reader for every question: a second one would miss what the
	// first read ahead.
	if o.answers == nil {
		o.answers = bufio.NewReader(streams.In)
	}
	answer, err := o.answers.ReadString('\n')
	if err != nil && (!errors.Is(err, io.EOF) || answer == "") {
		return false, true
	}
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true, true
	}
	return false, true
}

// stdinIsTerminal reports whether io.In is a terminal.
func stdinIsTerminal(streams *IOStreams) bool {
	f, ok := streams.In.(*os.File)
	return ok && isTTY(f)
}

// describeInspection prints what the file's servers would run and read:
// commands, arguments and URLs as written, names of env entries and
// headers (never their values), and the variables each would read.
func describeInspection(w io.Writer, in *config.Inspection) {
	fmt.Fprintf(w, "%s (%s, SHA-256 %s)\n", Sanitize(in.File), in.Format, in.SHA256[:16])
	if len(in.Servers) == 0 {
		fmt.Fprintln(w, "  (no valid server)")
	}
	for _, s := range in.Servers {
		fmt.Fprintf(w, "  %s (%s)\n", Sanitize(s.Name), transportName(s.Type))
		line := func(label, value string) {
			if value != "" {
				fmt.Fprintf(w, "    %-9s %s\n", label+":", sanitizeLine(value)) // a newline must not add a line
			}
		}
		line("command", s.Command)
		line("args", quoteArgs(s.Args))
		line("cwd", s.Cwd)
		line("env", strings.Join(sortedKeys(s.Env), ", "))
		if s.InheritEnv { // every secret in the user's environment reaches it
			line("inherits", `all of your environment variables (envPolicy "inherit")`)
		}
		line("url", urlForReview(s.URL))
		line("headers", strings.Join(sortedKeys(s.Headers), ", "))
		line("reads", strings.Join(s.Vars, ", "))
		for _, f := range oauthTokenFiles(s.OAuth) {
			line("sign-in", "sends the file "+f)
		}
		if !s.Enabled {
			line("note", "disabled in the file")
		}
	}
	for _, p := range in.Problems {
		kind := "error"
		if p.Warning {
			kind = "warning"
		}
		fmt.Fprintf(w, "  %s: %s\n", kind, Sanitize(oneLine(p.Error())))
	}
}

// urlForReview shows a URL without its password and with the names of
// its query parameters only: the file may hold a key written in place.
func urlForReview(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		// A ${HOST} in the host, say: show it as written, up to a query
		// and without what precedes an "@".
		raw, _, _ = strings.Cut(raw, "?")
		if scheme, rest, ok := strings.Cut(raw, "://"); ok {
			if at := strings.LastIndexByte(rest, '@'); at >= 0 {
				rest = "…@" + rest[at+1:]
			}
			raw = scheme + "://" + rest
		}
		return raw
	}
	out := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	if h := u.Hostname(); !isASCII(h) { // its letters can copy another's
		if ascii, ok := asciiDomain(h); ok {
			out += " (domain in ASCII: " + ascii + ")"
		} else {
			out += " (not a valid international domain name)"
		}
	}
	if u.User != nil {
		out += " (with a user name in the URL)"
	}
	if q := u.Query(); len(q) > 0 {
		out += " (query: " + strings.Join(sortedKeys(q), ", ") + ")"
	}
	return out
}

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// oauthTokenFiles are the files whose content a sign-in would send to an
// authorization server as a token (workloadIdentity.tokenFile,
// enterprise.idTokenFile), as written.
func oauthTokenFiles(block json.RawMessage) []string {
	var doc struct {
		WorkloadIdentity struct {
			TokenFile any `json:"tokenFile"`
		} `json:"workloadIdentity"`
		Enterprise struct {
			IDTokenFile any `json:"idTokenFile"`
		} `json:"enterprise"`
	}
	if len(block) == 0 || json.Unmarshal(block, &doc) != nil {
		return nil
	}
	var files []string
	for _, v := range []any{doc.WorkloadIdentity.TokenFile, doc.Enterprise.IDTokenFile} {
		if f, ok := v.(string); ok && f != "" {
			files = append(files, f)
		}
	}
	return files
}
