package cli

import (
	"fmt"

	"github.com/mcpwire/mcpwire/config"
)

// checkProblems shows the problems of the loaded config files and returns
// the error that stops the command, if any. In a file the user named with
// --config, and in every file with --strict, an error is fatal, a server's
// own as much as a file's: a CI health check or a gateway must not start
// on a broken config. So is a file-level error (a file that does not
// parse) in the project's own files, or when no server is left, so that
// no user reads "(no servers configured)" after configuring one. Elsewhere
// a server's error shows as that server's failure, and a broken user-level
// file of another tool only warns, so that it does not stop the rest.
// Warnings are shown with --verbose, but for the approvals file's.
func checkProblems(streams *IOStreams, f *ConfigFlags, verbose bool, set *config.Set) error {
	project := projectFiles(f)
	// A damaged approvals file untrusts every project file at once: that
	// warning is shown always, or the user would only see files they
	// approved listed as untrusted, with no word of why.
	approvals := config.TrustFile(config.LoadOptions{})
	var fatal []config.Problem
	for _, p := range withUntrustedFileErrors(set) {
		switch {
		case p.Warning:
			if verbose || (approvals != "" && p.File == approvals) {
				fmt.Fprintf(streams.ErrOut, "mcpwire: warning: %s\n", problemLine(streams, p))
			}
		case len(f.Files) > 0 || f.Strict || (p.Server == "" && (project[p.File] || len(set.Servers) == 0)):
			fatal = append(fatal, p)
		case p.Server != "":
			// Shown as that server's failure when it is used.
		default:
			fmt.Fprintf(streams.ErrOut, "mcpwire: warning: %s\n", problemLine(streams, p))
		}
	}
	if len(fatal) == 0 {
		return nil
	}
	// Every error is shown, so that one run tells all there is to fix;
	// the last is the command's error.
	for _, p := range fatal[:len(fatal)-1] {
		fmt.Fprintf(streams.ErrOut, "mcpwire: %s\n", problemLine(streams, p))
	}
	return &ConfigError{Msg: problemLine(streams, fatal[len(fatal)-1])}
}

// problemLine is a problem as one line, secrets masked, without the
// problem's own "warning: " label: the line's prefix says what it is.
func problemLine(streams *IOStreams, p config.Problem) string {
	p.Warning = false
	return Sanitize(fold(streams.Redact(cliWording(p.Error()))))
}

// withUntrustedFileErrors is set.Problems and, from the project files not
// yet approved, the errors of a whole file (one that does not parse).
// Reading a file's syntax runs nothing; without them a project whose
// .mcp.json is broken would read "(no servers configured)" until the user
// approved a file that cannot be approved usefully.
func withUntrustedFileErrors(set *config.Set) []config.Problem {
	all := set.Problems
	for _, in := range set.Untrusted {
		for _, p := range in.Problems {
			if !p.Warning && p.Server == "" {
				all = append(all[:len(all):len(all)], p)
			}
		}
	}
	return all
}
