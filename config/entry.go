package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// knownHostFields are fields other hosts define that mcpwire has no use
// for. They are skipped without a warning, so a file shared with those
// hosts loads quietly.
var knownHostFields = map[string]bool{
	"description": true, // several hosts: a label
	"alwaysAllow": true, // Cline, Roo: auto-approved tools
	"autoApprove": true, // Cline
	"trust":       true, // Gemini CLI: skip confirmations
	"dev":         true, // VS Code: watch and debug settings
	"settings":    true, // Zed: settings for an extension's server
}

// serverBuilder collects one definition's problems and remembers whether
// any of them is an error.
type serverBuilder struct {
	p    *docParser
	name string
	off  int // the server's name: where problems without a place point
	bad  bool
	// wrongType holds the fields whose value is not of the kind the field
	// takes. What stands in for such a value is a zero ("" for a string),
	// so a later check of it ("empty command", "disagree") would only
	// repeat the type error in misleading words.
	wrongType map[string]bool
}

// fail records an error about field's value, unless field already has
// a type error: the one place where follow-on errors are dropped, so a
// user sees one error per problem.
func (b *serverBuilder) fail(off int, field, msg string) {
	b.bad = true
	if b.wrongType[field] {
		return
	}
	b.add(off, field, msg, false)
}

// failPresent records an error about field being there at all, such as a
// command on an HTTP server: true whatever its value, so it stands beside
// a type error.
func (b *serverBuilder) failPresent(off int, field, msg string) {
	b.bad = true
	b.add(off, field, msg, false)
}

// failKind records that field's value is of the wrong kind, and marks the
// field so that no check of that value adds to it.
func (b *serverBuilder) failKind(off int, field, msg string) {
	b.fail(off, field, msg)
	if b.wrongType == nil {
		b.wrongType = make(map[string]bool)
	}
	b.wrongType[field] = true
}

func (b *serverBuilder) warn(off int, field, msg string) {
	b.add(off, field, msg, true)
}

func (b *serverBuilder) add(off int, field, msg string, warning bool) {
	if off < 0 {
		off = b.off
	}
	b.p.add(off, b.name, field, msg, warning)
}

// item is a string from the file with the offset it came from.
type item struct {
	field string // "args[2]", "env.TOKEN"
	key   string // map key; "" in lists
	val   string
	off   int
}

// server decodes, expands and validates one definition; nil if invalid.
func (p *docParser) server(d member, section string) *Server {
	b := &serverBuilder{p: p, name: d.Key, off: d.KeyOff}
	p.res.read = nil
	line, _ := p.lines.position(d.KeyOff)
	s := &Server{
		Name:    d.Key,
		Enabled: true,
		Source:  Source{File: p.file, Format: p.format, Section: section, Line: line},
	}
	fields, ok := objectMembers(d.Value, d.ValOff)
	if !ok {
		b.fail(d.ValOff, "", fmt.Sprintf("want an object holding the server's definition, got %s", p.kind(d.Value, d.ValOff)))
		return nil
	}
	raw, err := canonicalJSON(d.Value)
	if err != nil {
		b.fail(d.ValOff, "", "invalid JSON")
		return nil
	}
	s.Raw = raw
	fields = p.lastWins(fields, d.Key, "")

	var (
		f                 decoded
		enabled, disabled bool
	)
	for i := range fields {
		m := &fields[i]
		if isNull(m.Value) {
			continue // null is absent, as JSON-writing tools often emit it
		}
		switch m.Key {
		case "type":
			f.typ = m
			b.str(m, &f.typeStr)
		case "command":
			if p.format == FormatZed && jsonKind(m.Value) == "object" {
				b.zedCommand(m, &f)
				continue
			}
			f.command = m
			b.str(m, &f.commandStr)
		case "args":
			f.args = m
			f.argItems = b.list(m)
		case "env":
			f.env = m
			f.envItems = b.dict(m)
		case "cwd":
			f.cwd = m
			b.str(m, &f.cwdStr)
		case "url", "serverUrl", "httpUrl":
			f.urls = append(f.urls, *m)
		case "headers", "http_headers":
			f.headers = m
			f.headerItems = append(f.headerItems, b.dict(m)...)
		case "source": // Zed: "custom", or "extension" for a server only Zed can start
			b.str(m, &f.source)
		case "env_http_headers":
			f.envHeaders = m
			f.envHeaderItems = b.dict(m)
		case "bearer_token_env_var":
			f.bearer = m
			b.str(m, &f.bearerVar)
		case "env_vars":
			f.envVars = m
			f.envVarItems = b.list(m)
		case "timeout":
			s.Timeout, s.TimeoutSet = b.timeout(m, time.Millisecond)
		case "tool_timeout_sec":
			s.Timeout, s.TimeoutSet = b.timeout(m, time.Second)
		case "startup_timeout_sec":
			s.StartupTimeout, _ = b.timeout(m, time.Second)
		case "startup_timeout_ms":
			s.StartupTimeout, _ = b.timeout(m, time.Millisecond)
		case "enabled":
			f.enabled = m
			b.boolean(m, &enabled)
		case "disabled":
			f.disabled = m
			b.boolean(m, &disabled)
		case "enabledTools", "includeTools", "enabled_tools":
			s.EnabledTools = b.patterns(m)
		case "disabledTools", "excludeTools", "disabled_tools":
			s.DisabledTools = b.patterns(m)
		case "lazy":
			b.boolean(m, &s.Lazy)
		case "maxMessageSize":
			s.MaxMessageSize = b.messageSize(m)
		case "protocolVersion":
			s.ProtocolVersion = b.protocolVersion(m)
		case "envPolicy":
			f.policy = m
			s.InheritEnv = b.envPolicy(m)
		case "oauth":
			s.OAuth = b.oauth(m)
		case "envFile":
			b.warn(m.KeyOff, m.Key, "not supported: the variables in that file are not loaded; list them under \"env\"")
		default:
			if !knownHostFields[m.Key] {
				b.warn(m.KeyOff, "", fmt.Sprintf("unknown field %s ignored", quoteName(m.Key)))
			}
		}
	}

	switch {
	case f.enabled != nil && f.disabled != nil && !b.wrongType["enabled"] && enabled == disabled:
		// The check reads both values: fail drops it when "disabled" has
		// the wrong type, this guard when "enabled" has.
		b.fail(f.disabled.KeyOff, "disabled", `"enabled" and "disabled" disagree; keep one`)
	case f.enabled != nil:
		s.Enabled = enabled
	case f.disabled != nil:
		s.Enabled = !disabled
	}

	if f.source == "extension" {
		b.warn(-1, "source", "skipped: a Zed extension provides this server, and only Zed can start it")
		return nil
	}
	s.Type = b.transportType(&f)
	// Expand and check only what the transport uses: an unset variable
	// in an ignored field must not make the server invalid. When the type
	// is undecided (an error already), check everything, so that one run
	// reports all there is to fix.
	process := s.Type == TypeStdio || s.Type == ""
	remote := s.Type != TypeStdio
	if process {
		b.process(s, &f)
	} else {
		b.ignored("only stdio servers run a process", f.args, f.env, f.cwd, f.policy, f.envVars)
	}
	if remote {
		b.remote(s, &f)
	} else {
		b.ignored("a stdio server takes no HTTP headers", f.headers, f.envHeaders, f.bearer)
	}
	if b.bad {
		return nil
	}
	if p.res.inspect && len(s.OAuth) > 0 {
		// The block is expanded when the server signs in; note what it
		// would read. Its problems are the sign-in's to report.
		_, _ = p.res.expand(string(s.OAuth))
		p.res.read = append(p.res.read, oauthVarNames(s.OAuth)...)
	}
	s.Vars = sortedUnique(p.res.read)
	return s
}

// sortedUnique returns the distinct names of names, sorted; nil if none.
func sortedUnique(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

// decoded holds the fields of one definition before expansion.
type decoded struct {
	typ, command, args, env, cwd, headers, policy, enabled, disabled *member
	envVars, envHeaders, bearer                                      *member // Codex
	urls                                                             []member

	typeStr, commandStr, cwdStr, bearerVar string
	source                                 string // Zed
	argItems, envItems, headerItems        []item
	envVarItems, envHeaderItems            []item // Codex: variable names
}

// process expands and checks the fields of a stdio server.
func (b *serverBuilder) process(s *Server, f *decoded) {
	if f.command != nil {
		field := f.command.Key // Zed: "command.path"
		v, ok := b.expand(f.command.ValOff, field, f.commandStr)
		if ok && strings.TrimSpace(v) == "" {
			b.fail(f.command.ValOff, field, "empty command")
		}
		b.noNUL(f.command.ValOff, field, v)
		s.Command = v
	}
	for _, a := range f.argItems {
		v, _ := b.expand(a.off, a.field, a.val)
		b.noNUL(a.off, a.field, v)
		s.Args = append(s.Args, v)
	}
	if f.envItems != nil {
		s.Env = make(map[string]string, len(f.envItems))
		for _, e := range f.envItems {
			if e.key == "" || strings.ContainsAny(e.key, "=\x00") {
				b.fail(e.off, e.field, "an environment variable name must be non-empty and contain no \"=\"")
			}
			v, _ := b.expand(e.off, e.field, e.val)
			b.noNUL(e.off, e.field, v)
			s.Env[e.key] = v
		}
	}
	for _, e := range f.envVarItems {
		if !validVarName(e.val) {
			b.fail(e.off, e.field, fmt.Sprintf("%s is not a variable name", quoteName(e.val)))
			continue
		}
		if v, ok := b.p.res.lookup(e.val); ok {
			if s.Env == nil {
				s.Env = make(map[string]string)
			}
			s.Env[e.val] = v
		}
	}
	if f.cwd != nil {
		s.Cwd, _ = b.expand(f.cwd.ValOff, "cwd", f.cwdStr)
		// An unread reference (an untrusted file's "${HOME}/x") may stand
		// for an absolute path: joined to Dir it would show a place the
		// server never runs in, so it stays as written.
		unread := b.p.res.inspect && strings.HasPrefix(s.Cwd, "${")
		if s.Cwd != "" && !unread && !filepath.IsAbs(s.Cwd) && b.p.opts.Dir != "" {
			s.Cwd = filepath.Join(b.p.opts.Dir, s.Cwd)
		}
	}
}

// remote expands and checks the fields of an HTTP or SSE server.
func (b *serverBuilder) remote(s *Server, f *decoded) {
	if len(f.urls) > 0 {
		m := f.urls[0]
		var written string
		if b.str(&m, &written) {
			v, ok := b.expand(m.ValOff, m.Key, written)
			if ok {
				if msg := checkURL(v, written); msg != "" {
					b.fail(m.ValOff, m.Key, msg)
				}
			}
			s.URL = v
		}
	}
	if f.headerItems != nil {
		s.Headers = make(map[string]string, len(f.headerItems))
		for _, h := range f.headerItems {
			if !validHeaderName(h.key) {
				b.fail(h.off, h.field, "not a valid HTTP header name")
			}
			v, _ := b.expand(h.off, h.field, h.val)
			if strings.ContainsAny(v, "\r\n\x00") {
				b.fail(h.off, h.field, "the value contains a line break or NUL")
			}
			s.Headers[h.key] = v
		}
	}
	b.envHeaders(s, f)
}

// envHeaders adds the headers whose values come from environment
// variables named in the file (Codex's env_http_headers and
// bearer_token_env_var).
func (b *serverBuilder) envHeaders(s *Server, f *decoded) {
	set := func(key, value string) {
		if s.Headers == nil {
			s.Headers = make(map[string]string)
		}
		s.Headers[key] = value
	}
	for _, h := range f.envHeaderItems {
		switch {
		case !validHeaderName(h.key):
			b.fail(h.off, h.field, "not a valid HTTP header name")
		case !validVarName(h.val):
			b.fail(h.off, h.field, fmt.Sprintf("%s is not a variable name", quoteName(h.val)))
		default:
			// As Codex does: an unset or empty variable leaves the
			// header out.
			if v, ok := b.p.res.lookup(h.val); ok && v != "" {
				if strings.ContainsAny(v, "\r\n\x00") {
					b.fail(h.off, h.field, fmt.Sprintf("the value of %s contains a line break or NUL", quoteName(h.val)))
				}
				set(h.key, v)
			}
		}
	}
	if f.bearer == nil || b.wrongType[f.bearer.Key] {
		return // absent, or its type error said it all: no variable to read
	}
	name := f.bearerVar
	v, ok := b.p.res.lookup(name)
	switch {
	case !validVarName(name):
		b.fail(f.bearer.ValOff, f.bearer.Key, fmt.Sprintf("%s is not a variable name", quoteName(name)))
	case !ok || v == "":
		b.fail(f.bearer.ValOff, f.bearer.Key, fmt.Sprintf("environment variable %s is not set", quoteName(name)))
	case strings.ContainsAny(v, "\r\n\x00"):
		b.fail(f.bearer.ValOff, f.bearer.Key, fmt.Sprintf("the value of %s contains a line break or NUL", quoteName(name)))
	default:
		set("Authorization", "Bearer "+v)
		s.BearerTokenEnvVar = name
	}
}

// ignored warns about present fields the transport does not use.
func (b *serverBuilder) ignored(why string, fields ...*member) {
	for _, m := range fields {
		if m != nil {
			b.warn(m.KeyOff, m.Key, "ignored: "+why)
		}
	}
}

// str decodes a string field; false (and a problem) for any other kind.
func (b *serverBuilder) str(f *member, dst *string) bool {
	kind := b.p.kind(f.Value, f.ValOff)
	if kind != "string" || json.Unmarshal(f.Value, dst) != nil {
		b.failKind(f.ValOff, f.Key, fmt.Sprintf("want a string, got %s", kind))
		return false
	}
	return true
}

func (b *serverBuilder) boolean(f *member, dst *bool) {
	if kind := b.p.kind(f.Value, f.ValOff); kind != "boolean" {
		b.failKind(f.ValOff, f.Key, fmt.Sprintf("want true or false, got %s", kind))
		return
	}
	*dst = string(f.Value) == "true"
}

// scalar turns a string, number or boolean (of the kind given) into the
// string a process or header gets: hosts that run on JavaScript stringify
// numbers in env and args, so {"PORT": 3000} works there and works here.
func scalar(kind string, v []byte) (string, bool) {
	switch kind {
	case "string":
		var s string
		return s, json.Unmarshal(v, &s) == nil
	case "number", "boolean":
		return string(v), true
	}
	return "", false
}

// list decodes an array of scalars.
func (b *serverBuilder) list(f *member) []item {
	elems, ok := arrayElements(f.Value, f.ValOff)
	if !ok {
		b.failKind(f.ValOff, f.Key, fmt.Sprintf("want an array of strings, got %s", b.p.kind(f.Value, f.ValOff)))
		return nil
	}
	out := make([]item, 0, len(elems))
	for i, e := range elems {
		field := fmt.Sprintf("%s[%d]", f.Key, i)
		kind := b.p.kind(e.Value, e.ValOff)
		v, ok := scalar(kind, e.Value)
		if !ok {
			b.failKind(e.ValOff, field, fmt.Sprintf("want a string, got %s", kind))
			continue
		}
		out = append(out, item{field: field, val: v, off: e.ValOff})
	}
	return out
}

// dict decodes an object of scalars, in file order, the last of a
// repeated key winning.
func (b *serverBuilder) dict(f *member) []item {
	ms, ok := objectMembers(f.Value, f.ValOff)
	if !ok {
		b.failKind(f.ValOff, f.Key, fmt.Sprintf("want an object of strings, got %s", b.p.kind(f.Value, f.ValOff)))
		return nil
	}
	ms = b.p.lastWins(ms, b.name, f.Key+".")
	out := make([]item, 0, len(ms))
	for _, m := range ms {
		field := f.Key + "." + m.Key
		kind := b.p.kind(m.Value, m.ValOff)
		v, ok := scalar(kind, m.Value)
		if !ok {
			b.failKind(m.ValOff, field, fmt.Sprintf("want a string, got %s", kind))
			continue
		}
		out = append(out, item{field: field, key: m.Key, val: v, off: m.ValOff})
	}
	return out
}

// messageSize reads "maxMessageSize": a whole number of bytes, or -1 for
// no limit.
func (b *serverBuilder) messageSize(f *member) int64 {
	const hint = "want a whole number of bytes (67108864 for 64 MiB), or -1 for no limit"
	if kind := b.p.kind(f.Value, f.ValOff); kind != "number" {
		b.failKind(f.ValOff, f.Key, fmt.Sprintf("got %s: %s", kind, hint))
		return 0
	}
	var n int64
	if json.Unmarshal(f.Value, &n) != nil || n < -1 {
		b.fail(f.ValOff, f.Key, "not a whole number of at least -1: "+hint)
		return 0
	}
	return n
}

// timeout reads a number of units (milliseconds for "timeout", seconds
// for Codex's *_sec) or a Go duration string.
func (b *serverBuilder) timeout(f *member, unit time.Duration) (time.Duration, bool) {
	hint := `want milliseconds (30000) or a duration ("30s"); 0 disables`
	if unit == time.Second {
		hint = `want seconds (30) or a duration ("30s"); 0 disables`
	}
	var d time.Duration
	switch kind := b.p.kind(f.Value, f.ValOff); kind {
	case "number":
		var n float64
		if json.Unmarshal(f.Value, &n) != nil || n > float64(math.MaxInt64)/float64(unit) {
			b.fail(f.ValOff, f.Key, "too large: "+hint)
			return 0, false
		}
		d = time.Duration(n * float64(unit))
	case "string":
		var s string
		_ = json.Unmarshal(f.Value, &s)
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			b.fail(f.ValOff, f.Key, fmt.Sprintf("%s is not a duration: %s", quoteName(s), hint))
			return 0, false
		}
	default:
		b.failKind(f.ValOff, f.Key, fmt.Sprintf("got %s: %s", kind, hint))
		return 0, false
	}
	if d < 0 {
		b.fail(f.ValOff, f.Key, "negative: "+hint)
		return 0, false
	}
	return d, true
}

// patterns reads a tool filter: exact names or path.Match globs.
func (b *serverBuilder) patterns(f *member) []string {
	items := b.list(f)
	var out []string
	for _, it := range items {
		if it.val == "" {
			b.fail(it.off, it.field, "empty pattern")
			continue
		}
		if _, err := path.Match(it.val, ""); err != nil {
			b.fail(it.off, it.field, fmt.Sprintf("bad glob %s: %v", quoteName(it.val), err))
			continue
		}
		out = append(out, it.val)
	}
	// Only a list written empty: one whose entries were all wrong has had
	// its problems.
	if elems, ok := arrayElements(f.Value, f.ValOff); ok && len(elems) == 0 {
		b.warn(f.ValOff, f.Key, "an empty list filters nothing; to turn the server off write \"enabled\": false")
	}
	return out
}

// protocolVersion reads "protocolVersion": "auto" (negotiate, the
// default) or a revision, a date such as "2025-11-25". Whether the client
// speaks that revision is the client's to say when it connects; config
// knows no protocol.
func (b *serverBuilder) protocolVersion(f *member) string {
	const hint = `want "auto" or a protocol revision such as "2025-11-25" or "2026-07-28"`
	var v string
	if !b.str(f, &v) {
		return ""
	}
	if v == "auto" || isRevision(v) {
		return v
	}
	b.fail(f.ValOff, f.Key, fmt.Sprintf("%s is not a protocol revision: %s", quoteName(v), hint))
	return ""
}

// isRevision reports whether v is written as a protocol revision: a date
// YYYY-MM-DD.
func isRevision(v string) bool {
	_, err := time.Parse(time.DateOnly, v)
	return err == nil
}

func (b *serverBuilder) envPolicy(f *member) bool {
	var s string
	if !b.str(f, &s) {
		return false
	}
	switch s {
	case "allowlist":
		return false
	case "inherit":
		return true
	}
	b.fail(f.ValOff, "envPolicy", fmt.Sprintf("unknown policy %s: want \"allowlist\" (the default) or \"inherit\"", quoteName(s)))
	return false
}

// oauth keeps the block as written, compacted and unexpanded, for the
// authorization layer to interpret.
func (b *serverBuilder) oauth(f *member) json.RawMessage {
	if kind := b.p.kind(f.Value, f.ValOff); kind != "object" {
		b.failKind(f.ValOff, "oauth", fmt.Sprintf("want an object, got %s", kind))
		return nil
	}
	var buf bytes.Buffer
	if json.Compact(&buf, f.Value) != nil {
		b.fail(f.ValOff, "oauth", "invalid JSON")
		return nil
	}
	return json.RawMessage(buf.Bytes())
}

// transportType decides the server's Type from "type" or, without it,
// from which of command and url is present; "" when it cannot.
func (b *serverBuilder) transportType(f *decoded) string {
	urls := f.urls
	if len(urls) > 1 {
		b.failPresent(urls[1].KeyOff, urls[1].Key, fmt.Sprintf("both %q and %q are set; keep one", urls[0].Key, urls[1].Key))
	}
	hasURL, hasCmd := len(urls) > 0, f.command != nil
	typ := ""
	if f.typ != nil && !b.wrongType["type"] {
		var err error
		if typ, err = ParseType(f.typeStr); err != nil {
			b.fail(f.typ.ValOff, "type", strings.TrimPrefix(err.Error(), "config: "))
			return ""
		}
	}
	switch typ {
	case "":
		switch {
		case hasCmd && hasURL:
			b.failPresent(f.command.KeyOff, "", fmt.Sprintf("both \"command\" and %q are set: a server is either a process (command) or remote (url)", urls[0].Key))
		case hasCmd:
			return TypeStdio
		case hasURL && urls[0].Key == "httpUrl":
			return TypeHTTP // Gemini CLI: httpUrl is Streamable HTTP
		case hasURL && b.p.format == FormatGemini:
			return TypeSSE // Gemini CLI: url is legacy SSE
		case hasURL && b.p.format == FormatCodex:
			return TypeHTTP // Codex speaks Streamable HTTP only
		case hasURL:
			return TypeAuto
		case f.typ == nil:
			b.fail(-1, "", "needs \"command\" (a local process) or \"url\" (a remote server)")
		}
		return ""
	case TypeStdio:
		if hasURL {
			b.failPresent(urls[0].KeyOff, urls[0].Key, "a stdio server takes \"command\", not a URL")
		}
		if !hasCmd {
			b.fail(f.typ.KeyOff, "command", "a stdio server needs a command")
		}
	default:
		if hasCmd {
			b.failPresent(f.command.KeyOff, "command", fmt.Sprintf("a %s server takes \"url\", not a command", typ))
		}
		if !hasURL {
			b.fail(f.typ.KeyOff, "url", fmt.Sprintf("a %s server needs a url", typ))
		}
	}
	return typ
}

// zedCommand reads Zed's object form of "command": {"path", "args",
// "env"}, as if the three stood in the definition.
func (b *serverBuilder) zedCommand(m *member, f *decoded) {
	fields, _ := objectMembers(m.Value, m.ValOff)
	for _, c := range b.p.lastWins(fields, b.name, "command.") {
		if isNull(c.Value) {
			continue
		}
		c.Key = "command." + c.Key
		switch c.Key {
		case "command.path":
			f.command = &c
			b.str(&c, &f.commandStr)
		case "command.args":
			f.args = &c
			f.argItems = b.list(&c)
		case "command.env":
			f.env = &c
			f.envItems = b.dict(&c)
		default:
			b.warn(c.KeyOff, "", fmt.Sprintf("unknown field %s ignored", quoteName(c.Key)))
		}
	}
	if f.command == nil {
		b.fail(m.ValOff, "command.path", "the command object needs a \"path\"")
	}
}

// expand expands one value, reporting a failure against field.
func (b *serverBuilder) expand(off int, field, v string) (string, bool) {
	out, err := b.p.res.expand(v)
	if err != nil {
		b.fail(off, field, err.Error())
		var missing *MissingInputError
		if errors.As(err, &missing) {
			b.p.problems[len(b.p.problems)-1].Err = missing
		}
		return "", false
	}
	return out, true
}

func (b *serverBuilder) noNUL(off int, field, v string) {
	if strings.IndexByte(v, 0) >= 0 {
		b.fail(off, field, "contains a NUL byte")
	}
}

// validHeaderName reports whether s is an HTTP token (RFC 9110).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
