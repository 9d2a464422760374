package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Parse reads one config document in the given format (FormatAuto:
// DetectFormat(file)) and returns the servers that are valid, in file
// order, and every problem found, in file order. An invalid entry is left
// out; the others still load. file is used in Source and Problem only.
//
// Of opts, Parse uses Env (default os.LookupEnv) and Inputs for
// expansion, Dir (${workspaceFolder}, relative cwd, and the projects entry
// of ~/.claude.json) and HomeDir (${userHome}). It reads no files, and
// leaves Dir and HomeDir empty (unknown) unless given.
func Parse(data []byte, file string, format Format, opts LoadOptions) ([]*Server, []Problem) {
	entries, problems := parseDocument(data, file, format, opts)
	var servers []*Server
	for _, e := range entries {
		if e.server != nil {
			servers = append(servers, e.server)
		}
	}
	return servers, problems
}

// DetectFormat picks a format from a file's name: mcpwire.json is
// FormatMCPWire, .claude.json FormatClaude, .vscode/mcp.json FormatVSCode,
// .mcp.json, mcp.json and mcp_config.json FormatMCPServers,
// claude_desktop_config.json FormatClaudeDesktop, settings.json in a
// .gemini directory FormatGemini and in a zed or .zed directory FormatZed,
// any *.toml FormatCodex; any other name FormatMCPWire, which accepts both
// "servers" and "mcpServers".
func DetectFormat(file string) Format {
	base := filepath.Base(file)
	dir := strings.ToLower(filepath.Base(filepath.Dir(file)))
	switch {
	case base == "claude_desktop_config.json":
		return FormatClaudeDesktop
	case base == "settings.json" && dir == ".gemini":
		return FormatGemini
	case base == "settings.json" && (dir == "zed" || dir == ".zed"):
		return FormatZed
	case strings.HasSuffix(strings.ToLower(base), ".toml"):
		return FormatCodex

	case base == "mcpwire.json":
		return FormatMCPWire
	case base == ".claude.json":
		return FormatClaude
	case base == "mcp.json" && filepath.Base(filepath.Dir(file)) == ".vscode":
		return FormatVSCode
	case base == "mcp.json" && filepath.Base(filepath.Dir(file)) == "User" && filepath.Base(filepath.Dir(filepath.Dir(file))) == "Code":
		return FormatVSCode // VS Code's user profile: CONFIG/Code/User/mcp.json
	case base == ".mcp.json", base == "mcp.json", base == "mcp_config.json":
		return FormatMCPServers
	}
	return FormatMCPWire
}

// entry is one definition in a document: its name, and the server when
// the definition is valid. An invalid entry still claims its name.
type entry struct {
	name   string
	server *Server
	// shadowed: an earlier definition took the name (set by Load).
	shadowed bool
}

// docParser holds the state of parsing one document.
type docParser struct {
	file     string
	format   Format
	doc      []byte // comments and trailing commas blanked
	lines    positioner
	opts     LoadOptions
	res      *resolver
	problems []Problem
	// kinds maps the offsets of values written for what JSON has no kind
	// for (Codex: a TOML datetime, nan) to that kind: kind reports it, so
	// "command = 1979-05-27" is a type error, not a command.
	kinds map[int]string
}

// kind names the type of the value v at offset off, for the checks and
// messages of the fields: its JSON kind, or the TOML kind it was written
// for.
func (p *docParser) kind(v []byte, off int) string {
	if k, ok := p.kinds[off]; ok {
		return k
	}
	return jsonKind(v)
}

// add records a problem at byte offset off (negative: no position).
func (p *docParser) add(off int, server, field, msg string, warning bool) {
	pr := Problem{File: p.file, Server: server, Field: field, Msg: msg, Warning: warning}
	if off >= 0 {
		pr.Line, pr.Col = p.lines.position(off)
	}
	p.problems = append(p.problems, pr)
}

func parseDocument(data []byte, file string, format Format, opts LoadOptions) ([]entry, []Problem) {
	return parseDocumentWith(data, file, format, opts, false)
}

// parseDocumentWith parses one document; inspect reads no variable (an
// untrusted file: see Inspect).
func parseDocumentWith(data []byte, file string, format Format, opts LoadOptions, inspect bool) ([]entry, []Problem) {
	if format == FormatAuto {
		format = DetectFormat(file)
	}
	p := &docParser{
		file:   file,
		format: format,
		lines:  newLineIndex(data),
		opts:   opts,
		res:    newResolver(opts),
	}
	if inspect {
		p.res.inspect = true
		p.res.env = func(string) (string, bool) { return "", false }
		p.res.inputs = nil
	}
	switch format {
	case FormatMCPWire, FormatMCPServers, FormatVSCode, FormatClaude, FormatClaudeDesktop, FormatGemini, FormatZed:
	case FormatCodex:
		// Codex takes every value as written: no reference is expanded.
		p.res.literal = true
		var ok bool
		if data, p.lines, ok = p.codexDocument(data); !ok {
			return nil, p.problems
		}
	default:
		p.add(-1, "", "", fmt.Sprintf("unknown format %q", string(format)), false)
		return nil, p.problems
	}
	if format == FormatGemini {
		p.res.bareDollar = true // Gemini CLI reads $VAR as ${VAR}
	}
	top, ok := p.topLevel(data)
	if !ok {
		return nil, p.problems
	}
	entries := p.sections(top)
	// Report in the order a reader meets them in the file.
	sort.SliceStable(p.problems, func(i, j int) bool {
		a, b := p.problems[i], p.problems[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return entries, p.problems
}

// topLevel strips JSONC, checks the syntax and returns the members of the
// top-level object.
func (p *docParser) topLevel(data []byte) ([]member, bool) {
	clean, err := stripJSONC(data)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			p.add(se.Offset, "", "", "invalid JSON: "+se.Msg, false)
		}
		return nil, false
	}
	p.doc = clean
	start := skipSpace(clean, 0)
	if start == len(clean) {
		p.add(-1, "", "", "empty file: no servers", true)
		return nil, false
	}
	var v json.RawMessage
	if err := json.Unmarshal(clean, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := int(se.Offset) - 1
			if off < 0 {
				off = 0
			}
			p.add(off, "", "", "invalid JSON: "+se.Error(), false)
		} else {
			p.add(-1, "", "", "invalid JSON", false)
		}
		return nil, false
	}
	end, err := valueEnd(clean, start)
	if err != nil {
		p.add(start, "", "", "invalid JSON", false)
		return nil, false
	}
	members, ok := objectMembers(clean[start:end], start)
	if !ok {
		p.add(start, "", "", fmt.Sprintf("the file must hold a JSON object, got %s", jsonKind(clean[start:end])), false)
		return nil, false
	}
	return p.lastWins(members, "", ""), true
}

// lastWins drops all but the last member of each key, as JSON.parse keeps
// the last, and warns about the dropped ones.
func (p *docParser) lastWins(ms []member, server, prefix string) []member {
	last := make(map[string]int, len(ms))
	for i, m := range ms {
		last[m.Key] = i
	}
	if len(last) == len(ms) {
		return ms
	}
	out := make([]member, 0, len(last))
	for i, m := range ms {
		if last[m.Key] != i {
			later, _ := p.lines.position(ms[last[m.Key]].KeyOff)
			p.add(m.KeyOff, server, prefix+m.Key, fmt.Sprintf("duplicate key; the later one on line %d is used", later), true)
			continue
		}
		out = append(out, m)
	}
	return out
}

// sections walks the top-level keys the format allows and parses the
// server maps in them.
func (p *docParser) sections(top []member) []entry {
	var maps []member
	var projects *member
	for i := range top {
		m := top[i]
		switch {
		case m.Key == "$schema":
		case m.Key == "inputs" && (p.format == FormatVSCode || p.format == FormatMCPWire):
			p.inputs(m)
		case m.Key == "servers" && (p.format == FormatVSCode || p.format == FormatMCPWire):
			maps = append(maps, m)
		case m.Key == "mcpServers" && p.format != FormatVSCode && p.format != FormatZed && p.format != FormatCodex:
			maps = append(maps, m)
		case m.Key == "context_servers" && p.format == FormatZed:
			maps = append(maps, m)
		case m.Key == "mcp_servers" && p.format == FormatCodex:
			maps = append(maps, m)
		case m.Key == "projects" && p.format == FormatClaude:
			projects = &top[i]
		case p.format.isAppSettings():
			// A host's whole settings file holds much else; none of it
			// is ours.
		default:
			p.add(m.KeyOff, "", "", p.unknownTopLevel(m.Key), true)
		}
	}
	if len(maps) > 1 {
		p.add(maps[1].KeyOff, "", "", `both "servers" and "mcpServers" are present; both load, and the first definition of a name wins`, true)
	}
	var out []entry
	if projects != nil {
		if m, ok := p.claudeProject(*projects); ok {
			out = append(out, p.serverMap(m, "projects["+quoteJSON(p.opts.Dir)+"].mcpServers")...)
		}
	}
	for _, m := range maps {
		out = append(out, p.serverMap(m, m.Key)...)
	}
	return out
}

// isAppSettings reports whether files of the format are a host's whole
// settings, where keys other than the servers' are none of ours.
func (f Format) isAppSettings() bool {
	switch f {
	case FormatClaude, FormatClaudeDesktop, FormatGemini, FormatZed, FormatCodex:
		return true
	}
	return false
}

func (p *docParser) unknownTopLevel(key string) string {
	msg := fmt.Sprintf("unknown top-level key %s ignored", quoteName(key))
	switch {
	case key == "servers" && p.format == FormatMCPServers:
		msg += `; this file's format puts servers under "mcpServers"`
	case key == "mcpServers" && p.format == FormatVSCode:
		msg += `; VS Code puts servers under "servers"`
	}
	return msg
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// claudeProject finds projects[<Dir>].mcpServers in ~/.claude.json. Claude
// Code keys projects by absolute path; Dir is compared cleaned, and also
// with symbolic links resolved.
func (p *docParser) claudeProject(projects member) (member, bool) {
	if p.opts.Dir == "" {
		return member{}, false
	}
	want := map[string]bool{filepath.Clean(p.opts.Dir): true}
	if real, err := filepath.EvalSymlinks(p.opts.Dir); err == nil {
		want[real] = true
	}
	ms, ok := objectMembers(projects.Value, projects.ValOff)
	if !ok {
		p.add(projects.ValOff, "", "projects", fmt.Sprintf("want an object, got %s", jsonKind(projects.Value)), true)
		return member{}, false
	}
	for _, proj := range ms {
		if proj.Key == "" || !want[filepath.Clean(filepath.FromSlash(proj.Key))] {
			continue
		}
		fields, ok := objectMembers(proj.Value, proj.ValOff)
		if !ok {
			// This directory's entry, which its servers would be in.
			p.add(proj.ValOff, "", "projects["+quoteJSON(proj.Key)+"]", fmt.Sprintf("want an object, got %s", jsonKind(proj.Value)), true)
			continue
		}
		for _, f := range fields {
			if f.Key == "mcpServers" {
				return f, true
			}
		}
	}
	return member{}, false
}

// serverMap parses one name -> definition map.
func (p *docParser) serverMap(m member, section string) []entry {
	if isNull(m.Value) {
		return nil
	}
	defs, ok := objectMembers(m.Value, m.ValOff)
	if !ok {
		p.add(m.ValOff, "", section, fmt.Sprintf("want an object mapping server names to definitions, got %s", p.kind(m.Value, m.ValOff)), false)
		return nil
	}
	defs = p.lastWins(defs, "", section+".")
	var out []entry
	for _, d := range defs {
		if msg := checkServerName(d.Key); msg != "" {
			p.add(d.KeyOff, "", section, msg, false)
			continue
		}
		out = append(out, entry{name: d.Key, server: p.server(d, section)})
	}
	return out
}

func checkServerName(name string) string {
	if strings.TrimSpace(name) == "" {
		return "a server name must not be empty"
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return fmt.Sprintf("server name %s contains a control character", quoteName(name))
		}
	}
	return ""
}

// inputs reads VS Code's "inputs" declarations: only the ids and
// descriptions matter here (for messages); the library never prompts.
func (p *docParser) inputs(m member) {
	elems, ok := arrayElements(m.Value, m.ValOff)
	if !ok {
		if !isNull(m.Value) {
			p.add(m.ValOff, "", "inputs", fmt.Sprintf("want an array, got %s", jsonKind(m.Value)), false)
		}
		return
	}
	p.res.declared = make(map[string]string)
	p.res.password = make(map[string]bool)
	for i, e := range elems {
		field := fmt.Sprintf("inputs[%d]", i)
		fields, ok := objectMembers(e.Value, e.ValOff)
		if !ok {
			p.add(e.ValOff, "", field, fmt.Sprintf("want an object, got %s", jsonKind(e.Value)), false)
			continue
		}
		var id, desc string
		var idOK, password bool
		for _, f := range fields {
			switch f.Key {
			case "id":
				idOK = jsonKind(f.Value) == "string" && json.Unmarshal(f.Value, &id) == nil && id != ""
			case "description":
				_ = json.Unmarshal(f.Value, &desc)
			case "password":
				_ = json.Unmarshal(f.Value, &password)
			}
		}
		if !idOK {
			p.add(e.ValOff, "", field+".id", "want a non-empty string", false)
			continue
		}
		p.res.declared[id] = desc
		p.res.password[id] = password
	}
}
