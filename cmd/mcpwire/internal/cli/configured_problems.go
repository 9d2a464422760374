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
// Warnings are shown with --verbose.
func checkProblems(streams *IOStreams, f *ConfigFlags, verbose bool, set *config.Set) error {
	project := projectFiles(f)
	var fatal []config.Problem
	for _, p := range set.Problems {
		switch {
		case p.Warning:
			if verbose {
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
	return Sanitize(fold(streams.Redact(p.Error())))
}
