package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// LoadOptions says where to look for config files and how to expand
// variables. The zero value discovers files for the current directory and
// the current user, expanding from the process environment.
type LoadOptions struct {
	// Dir is the project directory; default the working directory. Only
	// Dir itself is searched: Load does not walk up to a repository root.
	Dir string
	// UserConfigDir is where mcpwire/mcpwire.json lives; default
	// os.UserConfigDir() ($XDG_CONFIG_HOME or ~/.config on Linux).
	UserConfigDir string
	// HomeDir holds the other hosts' user files; default os.UserHomeDir().
	HomeDir string
	// Files, when non-empty, replaces discovery: exactly these files are
	// read, in this order (mcpwire --config FILE). A missing one fails Load.
	// Their format comes from DetectFormat.
	Files []string
	// Env looks up variables for ${VAR} and MCPWIRE_INPUT_*; default
	// os.LookupEnv.
	Env func(name string) (string, bool)
	// Inputs supplies VS Code ${input:id} values by id. The library never
	// prompts: a CLI that wants to ask the user does so and fills this map.
	Inputs map[string]string
	// Strict makes an error (not a warning) in a discovered file fail
	// Load, as an error in a file named in Files always does. Without it,
	// a broken discovered file is reported in Set.Problems and skipped:
	// the user did not ask for that file.
	Strict bool
}

// ErrInvalid is in the error Load returns when a file it may not skip
// has errors: a file named in LoadOptions.Files or, with Strict, any file.
var ErrInvalid = errors.New("config: invalid config file")

// Location is one place Load looks for a config file.
type Location struct {
	File   string
	Format Format
	Scope  string // "project", "user" or "explicit"
}

// Set is the result of Load.
type Set struct {
	// Servers are the definitions in effect, in discovery order. Disabled
	// servers are included (Enabled false): they claim their name.
	Servers []*Server
	// Shadowed are valid definitions whose name an earlier one already
	// claimed (for mcpwire servers --sources).
	Shadowed []*Server
	// Problems lists errors and warnings, file by file in discovery order.
	Problems []Problem
	// Files are the files that existed and were read.
	Files []string
}

// Lookup returns the server in effect with that name, or nil.
func (set *Set) Lookup(name string) *Server {
	for _, s := range set.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Err returns the Problems that are errors (not warnings) joined into one
// error, or nil.
func (set *Set) Err() error { return joinProblems(set.Problems) }

// Load discovers and reads config files, in Locations order, and merges
// their servers: the first definition of a name wins, later ones go to
// Shadowed. A definition that is invalid still claims its name, so a
// broken project entry is reported rather than silently replaced by a
// user-level one of the same name.
//
// Problems in discovered files and entries do not fail Load: they are in
// Set.Problems, and every valid server still loads. Load fails when an
// explicit file (LoadOptions.Files) is missing or unreadable, or when the
// project directory cannot be determined; then the Set is nil. It also
// fails when an explicit file, or with Strict any file, has a problem that
// is an error (a syntax error, an invalid entry): then the error wraps
// ErrInvalid and those Problems, and the Set is returned as well, complete,
// for a caller that reports everything before it gives up.
func Load(opts LoadOptions) (*Set, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	set := &Set{}
	claimed := make(map[string]bool)
	var fatal []error
	for _, loc := range Locations(opts) {
		before := len(set.Problems)
		if err := set.loadFile(loc, opts, claimed); err != nil {
			return nil, err
		}
		if opts.Strict || loc.Scope == "explicit" {
			for _, p := range set.Problems[before:] {
				if !p.Warning {
					fatal = append(fatal, p)
				}
			}
		}
	}
	if len(fatal) > 0 {
		return set, fmt.Errorf("%w: %w", ErrInvalid, errors.Join(fatal...))
	}
	return set, nil
}

// loadFile reads one location into set; claimed holds the names already
// taken. Only an explicit file that cannot be read is an error; any other
// file that cannot be read is a Problem, and a missing one is skipped.
func (set *Set) loadFile(loc Location, opts LoadOptions, claimed map[string]bool) error {
	data, err := os.ReadFile(loc.File)
	if err != nil {
		if loc.Scope == "explicit" {
			return fmt.Errorf("config: %w", err)
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			set.Problems = append(set.Problems, Problem{File: loc.File, Msg: "cannot read: " + pathErrorReason(err)})
		}
		return nil
	}
	set.Files = append(set.Files, loc.File)
	entries, problems := parseDocument(data, loc.File, loc.Format, opts)
	set.Problems = append(set.Problems, problems...)
	for _, e := range entries {
		if e.server != nil {
			e.server.Source.Scope = loc.Scope
		}
		switch {
		case claimed[e.name] && e.server != nil:
			set.Shadowed = append(set.Shadowed, e.server)
		case !claimed[e.name]:
			claimed[e.name] = true
			if e.server != nil {
				set.Servers = append(set.Servers, e.server)
			}
		}
	}
	return nil
}

// pathErrorReason is the reason of a file error without the path, which
// the Problem already names.
func pathErrorReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// withDefaults fills in Dir, UserConfigDir, HomeDir and Env and makes Dir
// absolute. A user directory that cannot be found is left empty and its
// files are skipped.
func (o LoadOptions) withDefaults() (LoadOptions, error) {
	if o.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("config: project directory: %w", err)
		}
		o.Dir = wd
	}
	abs, err := filepath.Abs(o.Dir)
	if err != nil {
		return o, fmt.Errorf("config: project directory: %w", err)
	}
	o.Dir = abs
	if o.UserConfigDir == "" {
		o.UserConfigDir, _ = os.UserConfigDir()
	}
	if o.HomeDir == "" {
		o.HomeDir, _ = os.UserHomeDir()
	}
	if o.Env == nil {
		o.Env = os.LookupEnv
	}
	return o, nil
}

// Locations lists the files Load reads, in order. With opts.Files it is
// exactly those files (scope "explicit"). Otherwise, project files first,
// then user files:
//
//	<Dir>/mcpwire.json                      mcpwire
//	<Dir>/.mcp.json                         mcpServers (Claude Code project)
//	<Dir>/mcp.json                          mcpServers
//	<Dir>/.vscode/mcp.json                  vscode
//	<Dir>/.cursor/mcp.json                  mcpServers (Cursor project)
//	<Dir>/.gemini/settings.json             gemini (Gemini CLI project)
//	<Dir>/.zed/settings.json                zed (Zed project)
//	<UserConfigDir>/mcpwire/mcpwire.json    mcpwire
//	<HomeDir>/.cursor/mcp.json              mcpServers (Cursor global)
//	<HomeDir>/.codeium/windsurf/mcp_config.json  mcpServers (Windsurf)
//	<HomeDir>/.claude.json                  claude: projects[<Dir>] first,
//	                                        then the user-level servers
//	<HomeDir>/.gemini/settings.json         gemini (Gemini CLI)
//	<CODEX_HOME>/config.toml                codex; CODEX_HOME (from Env)
//	                                        defaults to <HomeDir>/.codex
//	<UserConfigDir>/Claude/claude_desktop_config.json  claudeDesktop
//	<zed>/settings.json                     zed: <UserConfigDir>/zed, but
//	                                        <HomeDir>/.config/zed on macOS
//
// A file that appears twice (Dir is the home directory) is listed once.
// Locations applies the same defaults as Load.
func Locations(opts LoadOptions) []Location {
	if len(opts.Files) > 0 {
		out := make([]Location, len(opts.Files))
		for i, f := range opts.Files {
			out[i] = Location{File: f, Format: DetectFormat(f), Scope: "explicit"}
		}
		return out
	}
	if o, err := opts.withDefaults(); err == nil {
		opts = o
	}
	var out []Location
	seen := make(map[string]bool)
	add := func(base string, scope string, format Format, elem ...string) {
		if base == "" {
			return
		}
		f := filepath.Join(append([]string{base}, elem...)...)
		if seen[f] {
			return
		}
		seen[f] = true
		out = append(out, Location{File: f, Format: format, Scope: scope})
	}
	add(opts.Dir, "project", FormatMCPWire, "mcpwire.json")
	add(opts.Dir, "project", FormatMCPServers, ".mcp.json")
	add(opts.Dir, "project", FormatMCPServers, "mcp.json")
	add(opts.Dir, "project", FormatVSCode, ".vscode", "mcp.json")
	add(opts.Dir, "project", FormatMCPServers, ".cursor", "mcp.json")
	add(opts.Dir, "project", FormatGemini, ".gemini", "settings.json")
	add(opts.Dir, "project", FormatZed, ".zed", "settings.json")
	add(opts.UserConfigDir, "user", FormatMCPWire, "mcpwire", "mcpwire.json")
	add(opts.HomeDir, "user", FormatMCPServers, ".cursor", "mcp.json")
	add(opts.HomeDir, "user", FormatMCPServers, ".codeium", "windsurf", "mcp_config.json")
	add(opts.HomeDir, "user", FormatClaude, ".claude.json")
	add(opts.HomeDir, "user", FormatGemini, ".gemini", "settings.json")
	if codexHome, ok := opts.Env("CODEX_HOME"); ok && codexHome != "" {
		add(codexHome, "user", FormatCodex, "config.toml")
	} else {
		add(opts.HomeDir, "user", FormatCodex, ".codex", "config.toml")
	}
	add(opts.UserConfigDir, "user", FormatClaudeDesktop, "Claude", "claude_desktop_config.json")
	if runtime.GOOS == "darwin" {
		add(opts.HomeDir, "user", FormatZed, ".config", "zed", "settings.json")
	} else {
		add(opts.UserConfigDir, "user", FormatZed, "zed", "settings.json")
	}
	return out
}
