package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
	// StateDir holds the user's approvals of project files
	// (trusted-configs.json; see Approve). Default $XDG_STATE_HOME/mcpwire
	// (XDG_STATE_HOME read through Env), else
	// <HomeDir>/.local/state/mcpwire.
	StateDir string
	// LoadUntrusted loads project files the user has not approved as if
	// they were: their variables are expanded and their servers are in
	// Set.Servers, each with Source.Untrusted set. Without it (the
	// default) such a file's servers are only described, in
	// Set.Untrusted, and no variable of it is read. Files named in Files
	// and the user's own files are always trusted.
	LoadUntrusted bool
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
	Scope  string // ScopeProject, ScopeUser or ScopeExplicit
}

// Set is the result of Load.
type Set struct {
	// Servers are the definitions in effect, in discovery order. Disabled
	// servers are included (Enabled false): they claim their name. A
	// user-level server whose name a project file's server took is here
	// as UserPrefix+name ("user:github").
	Servers []*Server
	// Shadowed are valid definitions whose name an earlier one of the
	// same scope (or of an explicit file) already claimed (for mcpwire
	// servers --sources).
	Shadowed []*Server
	// Untrusted are the project files Load did not load because the user
	// has not approved their content (and LoadOptions.LoadUntrusted is
	// off), each read without reading a variable. Their servers claim
	// their names but are not in Servers; their problems are not in
	// Problems.
	Untrusted []*Inspection
	// Problems lists errors and warnings, file by file in discovery order.
	Problems []Problem
	// Files are the files that existed and were read, untrusted ones
	// included.
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
// user-level one of the same name. A project server never hides a
// user-level one, though: when a project file's server (valid, invalid
// or untrusted) has the name, the user's server is renamed UserPrefix+
// name ("user:github"), and a project server may not take a name with
// that prefix.
//
// A project file (scope ScopeProject) loads only when the user approved
// its current content (Approve) or LoadOptions.LoadUntrusted is set;
// otherwise it goes to Set.Untrusted, read without a variable lookup.
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
	l := &loader{set: set, opts: opts, claimed: make(map[string]string)}
	var fatal []error
	for _, loc := range Locations(opts) {
		before := len(set.Problems)
		if err := l.loadFile(loc); err != nil {
			return nil, err
		}
		if opts.Strict || loc.Scope == ScopeExplicit {
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

// loader is the state of one Load.
type loader struct {
	set  *Set
	opts LoadOptions
	// claimed maps each name taken to the scope of the file that took it.
	claimed map[string]string
	// approvals are the user's, read at the first project file.
	approvals *trustRecord
}

// loadFile reads one location into the set. Only an explicit file that
// cannot be read is an error; any other file that cannot be read is a
// Problem, and a missing one is skipped.
func (l *loader) loadFile(loc Location) error {
	set, opts := l.set, l.opts
	data, err := os.ReadFile(loc.File)
	if err != nil {
		if loc.Scope == ScopeExplicit {
			return fmt.Errorf("config: %w", err)
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			set.Problems = append(set.Problems, Problem{File: loc.File, Msg: "cannot read: " + pathErrorReason(err)})
		}
		return nil
	}
	set.Files = append(set.Files, loc.File)
	untrusted := loc.Scope == ScopeProject && !l.approved(loc.File, data)
	if untrusted && !opts.LoadUntrusted {
		l.addUntrusted(loc, data)
		return nil
	}
	entries, problems := parseDocument(data, loc.File, loc.Format, opts)
	set.Problems = append(set.Problems, problems...)
	for _, e := range entries {
		if e.server != nil {
			e.server.Source.Scope = loc.Scope
			e.server.Source.Untrusted = untrusted
		}
		if msg := l.claim(&e, loc.Scope); msg != "" {
			set.Problems = append(set.Problems, nameProblem(loc.File, e, msg))
			continue
		}
		switch {
		case e.shadowed && e.server != nil:
			set.Shadowed = append(set.Shadowed, e.server)
		case !e.shadowed && e.server != nil:
			set.Servers = append(set.Servers, e.server)
		}
	}
	return nil
}

// addUntrusted describes a project file the user has not approved: its
// servers claim their names, and nothing of it is expanded.
func (l *loader) addUntrusted(loc Location, data []byte) {
	in := inspectData(data, loc.File, loc.Format, l.opts)
	byName := make(map[string]*Server, len(in.Servers))
	for _, s := range in.Servers {
		s.Source.Scope = loc.Scope
		byName[s.Name] = s
	}
	var kept []*Server
	for _, name := range in.Names {
		e := entry{name: name, server: byName[name]}
		if msg := l.claim(&e, loc.Scope); msg != "" {
			in.Problems = append(in.Problems, nameProblem(loc.File, e, msg))
			continue
		}
		if !e.shadowed && e.server != nil {
			kept = append(kept, e.server)
		}
	}
	in.Servers = kept
	l.set.Untrusted = append(l.set.Untrusted, in)
}

// approved reports whether the user approved the project file with this
// content. An approvals file that cannot be read approves nothing and is
// reported once.
func (l *loader) approved(file string, data []byte) bool {
	if l.approvals == nil {
		rec, err := readTrust(TrustFile(l.opts))
		if err != nil {
			l.set.Problems = append(l.set.Problems, Problem{File: TrustFile(l.opts), Msg: err.Error() + "; no project file is trusted", Warning: true})
		}
		l.approvals = &rec
	}
	return l.approvals.Files[file] == ContentHash(data)
}

// UserPrefix is put before the name of a user-level server whose name a
// project server has: "user:github" is the user's github when the
// project defines one too.
const UserPrefix = "user:"

// claim settles the name of one definition from a file of scope: the
// first of a name wins and later ones are shadowed, except that a
// user-level server whose name a project server took is renamed
// UserPrefix+name. It returns a problem's message for a project name
// that would pass for a renamed user server.
func (l *loader) claim(e *entry, scope string) string {
	if scope == ScopeProject && strings.HasPrefix(e.name, UserPrefix) {
		return fmt.Sprintf("a project server's name may not start with %q: that prefix names the user's own servers", UserPrefix)
	}
	if by, taken := l.claimed[e.name]; taken && by == ScopeProject && scope == ScopeUser {
		e.name = UserPrefix + e.name
		if e.server != nil {
			e.server.Name = e.name
		}
	}
	if _, taken := l.claimed[e.name]; taken {
		e.shadowed = true
		return ""
	}
	l.claimed[e.name] = scope
	return ""
}

// nameProblem is the error of a definition whose name is refused.
func nameProblem(file string, e entry, msg string) Problem {
	p := Problem{File: file, Server: e.name, Msg: msg}
	if e.server != nil {
		p.Line = e.server.Source.Line
	}
	return p
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
//	<UserConfigDir>/Code/User/mcp.json      vscode (VS Code's user profile)
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
// A file that appears twice (Dir is the home directory) is listed once,
// as a user file.
// Locations applies the same defaults as Load.
func Locations(opts LoadOptions) []Location {
	if len(opts.Files) > 0 {
		out := make([]Location, len(opts.Files))
		for i, f := range opts.Files {
			out[i] = Location{File: f, Format: DetectFormat(f), Scope: ScopeExplicit}
		}
		return out
	}
	if o, err := opts.withDefaults(); err == nil {
		opts = o
	}
	var project, user []Location
	add := func(list *[]Location, base string, scope string, format Format, elem ...string) {
		if base == "" {
			return
		}
		f := filepath.Join(append([]string{base}, elem...)...)
		for _, l := range *list {
			if l.File == f {
				return
			}
		}
		*list = append(*list, Location{File: f, Format: format, Scope: scope})
	}
	p := func(format Format, elem ...string) { add(&project, opts.Dir, ScopeProject, format, elem...) }
	p(FormatMCPWire, "mcpwire.json")
	p(FormatMCPServers, ".mcp.json")
	p(FormatMCPServers, "mcp.json")
	p(FormatVSCode, ".vscode", "mcp.json")
	p(FormatMCPServers, ".cursor", "mcp.json")
	p(FormatGemini, ".gemini", "settings.json")
	p(FormatZed, ".zed", "settings.json")
	add(&user, opts.UserConfigDir, ScopeUser, FormatMCPWire, "mcpwire", "mcpwire.json")
	add(&user, opts.HomeDir, ScopeUser, FormatMCPServers, ".cursor", "mcp.json")
	add(&user, opts.UserConfigDir, ScopeUser, FormatVSCode, "Code", "User", "mcp.json")
	add(&user, opts.HomeDir, ScopeUser, FormatMCPServers, ".codeium", "windsurf", "mcp_config.json")
	add(&user, opts.HomeDir, ScopeUser, FormatClaude, ".claude.json")
	add(&user, opts.HomeDir, ScopeUser, FormatGemini, ".gemini", "settings.json")
	if codexHome, ok := opts.Env("CODEX_HOME"); ok && codexHome != "" {
		add(&user, codexHome, ScopeUser, FormatCodex, "config.toml")
	} else {
		add(&user, opts.HomeDir, ScopeUser, FormatCodex, ".codex", "config.toml")
	}
	add(&user, opts.UserConfigDir, ScopeUser, FormatClaudeDesktop, "Claude", "claude_desktop_config.json")
	if runtime.GOOS == "darwin" {
		add(&user, opts.HomeDir, ScopeUser, FormatZed, ".config", "zed", "settings.json")
	} else {
		add(&user, opts.UserConfigDir, ScopeUser, FormatZed, "zed", "settings.json")
	}
	// A user file is the user's own even when the project directory is
	// the home directory: it keeps its user scope and place.
	out := slices.DeleteFunc(project, func(pl Location) bool {
		return slices.ContainsFunc(user, func(ul Location) bool { return ul.File == pl.File })
	})
	return append(out, user...)
}
