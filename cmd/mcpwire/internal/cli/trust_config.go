package cli

// How the command treats project config files the user has not approved
// (see package config, "Trust"): it loads them undescribed and unexpanded,
// lists their servers as untrusted, and refuses to use them with one line
// that says how to approve them.

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
)

// TrustProjectEnv set to 1 trusts every project config file, as in CI,
// where nobody is there to approve one.
const TrustProjectEnv = "MCPWIRE_TRUST_PROJECT"

// trustProjectFromEnv reports whether MCPWIRE_TRUST_PROJECT=1.
func trustProjectFromEnv() bool {
	return os.Getenv(TrustProjectEnv) == "1"
}

// loadConfig loads the config files the command line selects: the named
// files (trusted: the user named them), or those discovered, project
// files only if approved or MCPWIRE_TRUST_PROJECT=1.
func loadConfig(files []string, inputs map[string]string) (*config.Set, error) {
	return config.Load(config.LoadOptions{Files: files, Inputs: inputs, LoadUntrusted: trustProjectFromEnv()})
}

// UntrustedConfigError refuses to use the servers of project config files
// the user has not approved. It maps to ExitUsage: the user's config,
// not a server, is in the way.
type UntrustedConfigError struct {
	Files []string
}

func (e *UntrustedConfigError) Error() string {
	if len(e.Files) == 1 {
		f := e.Files[0]
		return fmt.Sprintf("config file %s is not trusted: review and approve it with %q (or name it with --config, or set %s=1)",
			f, trustCommandFor(f), TrustProjectEnv)
	}
	return fmt.Sprintf("config files %s are not trusted: review and approve them with %q (or name them with --config, or set %s=1)",
		strings.Join(e.Files, ", "), "mcpwire trust", TrustProjectEnv)
}

// untrustedFiles returns the files of the servers the manager lists as
// untrusted, each once, in order; names limits them to those servers
// (nil: all).
func untrustedFiles(servers []manager.ServerStatus, names ...string) []string {
	var files []string
	for _, st := range servers {
		if st.State != manager.StateUntrusted || (names != nil && !slices.Contains(names, st.Name)) {
			continue
		}
		if !slices.Contains(files, st.Source.File) {
			files = append(files, st.Source.File)
		}
	}
	return files
}

// refuseUntrusted is the error for a command about every configured
// server when some of them are untrusted; nil when none is.
func (s *Session) refuseUntrusted() error {
	if files := untrustedFiles(s.M.Servers()); len(files) > 0 {
		return &UntrustedConfigError{Files: files}
	}
	return nil
}

// refuseUntrustedDefinition refuses the server name when an untrusted
// project file defines it.
func refuseUntrustedDefinition(set *config.Set, name string) error {
	for _, in := range set.Untrusted {
		for _, s := range in.Servers {
			if s.Name == name {
				return &UntrustedConfigError{Files: []string{in.File}}
			}
		}
	}
	return nil
}

// asUntrusted turns the manager's refusal of an untrusted server into the
// command's error; other errors come back unchanged.
func asUntrusted(err error) error {
	var ue *manager.UntrustedError
	if errors.As(err, &ue) {
		return &UntrustedConfigError{Files: []string{ue.File}}
	}
	return err
}

// trustCommandFor is the command line that approves file.
func trustCommandFor(file string) string {
	return "mcpwire trust " + shellQuote(file)
}

// shellQuote quotes s for a POSIX shell when it holds anything but the
// characters of plain paths.
func shellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteArgs shows a command's arguments, each quoted where needed.
func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
