package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/weakshare"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ModernProtocolVersion is the first protocol revision without the
// initialize handshake (the "modern era"): every request carries the
// protocol version, the client's capabilities and its info in _meta, and
// server/discover replaces initialize. Set ClientOptions.ProtocolVersion to
// it to speak this revision.
const ModernProtocolVersion = "2026-07-28"

// MethodServerDiscover asks a modern server what it supports.
const MethodServerDiscover = "server/discover"

// Keys of the modern era in _meta.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// Error codes of the modern era.
const (
	// CodeHeaderMismatch: an HTTP header is missing or does not match the
	// body.
	CodeHeaderMismatch = -32020
	// CodeMissingClientCapability: the request needs a client capability
	// its _meta did not declare.
	CodeMissingClientCapability = -32021
	// CodeUnsupportedProtocolVersion: the server does not speak the
	// request's protocol version; data {supported, requested}.
	CodeUnsupportedProtocolVersion = -32022
)

// modernVersions lists the modern revisions the client speaks, newest
// first. A var, not a const, so that a test can offer a second one.
var modernVersions = []string{ModernProtocolVersion}

// isModernVersion reports whether v is a revision of the modern era.
func isModernVersion(v string) bool { return slices.Contains(modernVersions, v) }

// discoverResult is a modern server's answer to server/discover.
type discoverResult struct {
	SupportedVersions []string           `json:"supportedVersions"`
	Capabilities      ServerCapabilities `json:"capabilities"`
	Instructions      string             `json:"instructions,omitempty"`
	Meta              map[string]any     `json:"_meta,omitempty"`
	// CacheHint is the 2026-07-28 ttlMs and cacheScope (zero before).
	CacheHint

	// rawMeta is _meta as sent, in place of Meta (nil then), when
	// callDiscover read the result's common shape (see keepRawMeta).
	rawMeta *string
}

// modernSession is a Client's state in the modern era. The _meta members
// every request carries are encoded once per session (and again only when
// the log level changes), so a request pays a copy, not an encoding.
type modernSession struct {
	// hello is what the handshake encodes into meta (again under another
	// version after a refusal); nil once the session opened, as meta
	// holds it from then on and an idle session need not keep a copy of
	// the client's info and capabilities.
	hello *modernHello

	// meta is the members of the request _meta, read-only and shared by
	// the sessions that send the same ones (see shareMeta).
	meta atomic.Pointer[modernMeta]

	// info is the serverInfo taken last, nil before one; read-only and
	// shared by the sessions that took the same (see tookServerInfo).
	info atomic.Pointer[takenInfo]

	mu      sync.Mutex
	version string
	// supported is the server's supportedVersions, read-only and shared
	// (see shareVersions).
	supported *[]string
	logLevel  LoggingLevel
}

// takenInfo is a serverInfo taken from a result and its raw value there.
type takenInfo struct {
	raw  string
	info Implementation
}

// sharedInfo holds the serverInfos in use by their raw value, so that the
// sessions of one server (which sends each the same) hold one copy between
// them rather than one each: an idle session then keeps a pointer.
var sharedInfo weakshare.Table[string, takenInfo]

// serverInfo returns the serverInfo taken last, the zero Implementation
// before one. Its Icons are the caller's own.
func (m *modernSession) serverInfo() Implementation {
	t := m.info.Load()
	if t == nil {
		return Implementation{}
	}
	// A deep copy: the value is shared by every session of the server,
	// and a caller may change what it was given.
	info := t.info
	info.Icons = slices.Clone(info.Icons)
	for i := range info.Icons {
		info.Icons[i].Sizes = slices.Clone(info.Icons[i].Sizes)
	}
	return info
}

// modernMeta is the members of a request _meta, without braces; base is
// their length without the log level member (see setLogLevel).
type modernMeta struct {
	members string
	base    int
}

// sharedMeta holds the _meta members in use, so that the sessions of one
// client configuration (every request's protocol version, capabilities and
// client info) hold one copy between them.
var sharedMeta weakshare.Table[modernMeta, modernMeta]

// shareMeta returns the shared modernMeta of members and base.
func shareMeta(members []byte, base int) *modernMeta {
	m := modernMeta{members: string(members), base: base}
	if got := sharedMeta.Get(m); got != nil {
		return got
	}
	return sharedMeta.Share(m, &m)
}

// modernHello is the client's info and capabilities a modern handshake
// sends in every request's _meta.
type modernHello struct {
	info Implementation
	caps ClientCapabilities
}

// encodeMeta builds the constant _meta members for version and level.
// The common capabilities and client info are written by hand, as for
// initialize (see handshake_json.go): encoding/json would keep field
// tables for these types for the life of the process.
func (m *modernSession) encodeMeta(version string, level LoggingLevel) error {
	var h modernHello
	if m.hello != nil {
		h = *m.hello
	}
	var caps, info []byte
	var err error
	if plainCapabilities(&h.caps) {
		caps = appendClientCapabilities(nil, &h.caps)
	} else if caps, err = json.Marshal(h.caps); err != nil {
		return fmt.Errorf("mcp: encoding the client capabilities: %w", err)
	}
	if plainImplementation(&h.info) {
		info = appendImplementation(nil, &h.info)
	} else if info, err = json.Marshal(h.info); err != nil {
		return fmt.Errorf("mcp: encoding the client info: %w", err)
	}
	b := make([]byte, 0, 64+len(caps)+len(info))
	b = jsonenc.AppendString(b, metaProtocolVersion)
	b = append(b, ':')
	b = jsonenc.AppendString(b, version)
	b = append(b, ',')
	b = jsonenc.AppendString(b, metaClientCapabilities)
	b = append(b, ':')
	b = append(b, caps...)
	b = append(b, ',')
	b = jsonenc.AppendString(b, metaClientInfo)
	b = append(b, ':')
	b = append(b, info...)
	base := len(b)
	b = appendLogLevel(b, level)
	m.meta.Store(shareMeta(b, base))
	return nil
}

// appendLogLevel appends the log level member, if level is set.
func appendLogLevel(b []byte, level LoggingLevel) []byte {
	if level == "" {
		return b
	}
	b = append(b, ',')
	b = jsonenc.AppendString(b, metaLogLevel)
	b = append(b, ':')
	return jsonenc.AppendString(b, string(level))
}

// withMeta returns params with the session's _meta members added. Params
// without a _meta member (the common case) get them spliced in front
// without decoding; an existing _meta object keeps its own keys, and the
// protocol's keys are the session's.
func (m *modernSession) withMeta(params any) (json.RawMessage, error) {
	var raw []byte
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		raw = p
	case jsonenc.Encoded: // valid already: encoding/json would scan it again
		raw = p
	default:
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return nil, err
		}
	}
	raw = bytes.TrimSpace(raw)
	meta := m.meta.Load().members
	if len(raw) == 0 || string(raw) == "null" {
		out := make([]byte, 0, len(meta)+12)
		out = append(out, `{"_meta":{`...)
		out = append(out, meta...)
		return append(out, "}}"...), nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("params are %s, not a JSON object", jsonKind(raw))
	}
	if !bytes.Contains(raw, []byte("meta")) { // even an escaped "_meta" spells meta
		members := make([]byte, 0, len(meta)+10)
		members = append(append(append(members, `"_meta":{`...), meta...), '}')
		return spliceMembers(raw, members)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	fields := map[string]json.RawMessage{}
	if own, ok := obj["_meta"]; ok && string(own) != "null" {
		if err := json.Unmarshal(own, &fields); err != nil {
			return nil, fmt.Errorf("params._meta must be an object, got %s", jsonKind(own))
		}
	}
	var ours map[string]json.RawMessage
	if err := json.Unmarshal(append(append([]byte{'{'}, meta...), '}'), &ours); err != nil {
		return nil, err
	}
	for k, v := range ours {
		fields[k] = v
	}
	var err error
	if obj["_meta"], err = json.Marshal(fields); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// withMetaFor is withMeta as the engine's params: the module's own
// encoding (jsonenc.Encoded) when params were, so that the engine does
// not check them again before it adds a progress token, and a
// json.RawMessage when params were one, which nobody has checked yet.
// Adding _meta keeps valid params valid and compact ones compact: the
// members are this module's, spliced in or encoded by encoding/json.
func (m *modernSession) withMetaFor(params any) (any, error) {
	raw, err := m.withMeta(params)
	if err != nil {
		return nil, err
	}
	if _, unchecked := params.(json.RawMessage); unchecked {
		return raw, nil
	}
	return jsonenc.Encoded(raw), nil
}

// spliceMembers returns the JSON object obj with members (`"k":v,…`) put
// first, without decoding obj.
func spliceMembers(obj, members []byte) ([]byte, error) {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' {
		return nil, fmt.Errorf("params are %s, not a JSON object", jsonKind(obj))
	}
	rest := bytes.TrimSpace(obj[1:])
	out := make([]byte, 0, len(obj)+len(members)+2)
	out = append(append(out, '{'), members...)
	if rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}

// observe takes the serverInfo a result carries in _meta, so that
// ServerInfo follows the server across requests. Results without one cost
// a scan, not a decoding, and so do results that repeat, byte for byte,
// the serverInfo taken last (a server sends the same one every time).
func (m *modernSession) observe(raw json.RawMessage) {
	if !bytes.Contains(raw, []byte("serverInfo")) {
		return
	}
	if m.sameServerInfo(raw) {
		return
	}
	var r struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	s, ok := r.Meta[metaServerInfo]
	if !ok {
		return
	}
	var info Implementation
	if json.Unmarshal(s, &info) != nil {
		return
	}
	m.tookServerInfo(info, string(s))
}

// tookServerInfo keeps info, whose raw value in a result was s, as the
// server's; a serverInfo without a name is ignored. Equal raw values
// decode to equal infos, so the one shared under s is as good as info.
func (m *modernSession) tookServerInfo(info Implementation, s string) {
	if info.Name == "" {
		return
	}
	t := sharedInfo.Get(s)
	if t == nil {
		t = sharedInfo.Share(s, &takenInfo{raw: s, info: info})
	}
	m.info.Store(t)
}

// serverInfoKey is the serverInfo member's name as it appears unescaped.
var serverInfoKey = []byte(`"` + metaServerInfo + `"`)

// sameServerInfo reports whether raw names serverInfo exactly once,
// unescaped, with the value taken last. Taking it again would change
// nothing: wherever that one member is, decoding raw either takes the
// same value or (not in the result's _meta) nothing.
func (m *modernSession) sameServerInfo(raw []byte) bool {
	last := m.info.Load()
	if last == nil {
		return false
	}
	i := bytes.Index(raw, serverInfoKey)
	if i < 0 {
		return false
	}
	rest := raw[i+len(serverInfoKey):]
	if bytes.Contains(rest, serverInfoKey) {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return false
	}
	// The value is an object, and a complete object is a prefix of no
	// other JSON value: equal leading bytes are an equal value.
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	return len(rest) >= len(last.raw) && string(rest[:len(last.raw)]) == last.raw
}

// setLogLevel makes level travel with every later request.
func (m *modernSession) setLogLevel(level LoggingLevel) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hello != nil {
		if err := m.encodeMeta(m.version, level); err != nil {
			return err
		}
	} else {
		// The other members stay as the handshake encoded them.
		old := m.meta.Load()
		b := appendLogLevel(append(make([]byte, 0, old.base+64), old.members[:old.base]...), level)
		m.meta.Store(shareMeta(b, old.base))
	}
	m.logLevel = level
	return nil
}

// discover opens a modern session pinned to version: server/discover
// under it, and once more under the newest version both sides speak if
// the server refuses it with -32022 (even the same one: a server that
// lists the version it refused may have refused something else). It
// fills c.init as initialize would.
func (c *Client) discover(ctx context.Context, info Implementation, version string) error {
	m := &modernSession{hello: &modernHello{info: info, caps: *c.caps}}
	// Nothing races this server/discover: it runs here, not on a
	// goroutine of its own as a probe does.
	if err := c.prepareDiscover(m, version); err != nil {
		return err
	}
	var out discoverOutcome
	out.res, out.err = c.callDiscover(ctx, m)
	if out.err != nil {
		supported := refusedVersions(out.err, CodeUnsupportedProtocolVersion)
		if supported == nil {
			return out.err
		}
		next := highestCommon(supported)
		if next == "" {
			var rpcErr *jsonrpc.Error
			errors.As(out.err, &rpcErr)
			return &ProtocolVersionError{Offered: version, Supported: supported, Err: rpcErr, modern: true}
		}
		return c.modernAfterProbe(ctx, m, version, next, negotiation{}, out.err)
	}
	if !slices.Contains(out.res.SupportedVersions, version) {
		return fmt.Errorf("mcp: %s: the server's supportedVersions %q do not list %s, the version it answered", MethodServerDiscover, out.res.SupportedVersions, version)
	}
	return c.modernOpened(m, version, out.res, negotiation{})
}

// sharedVersions holds the supportedVersions lists in use, by their
// members joined with NULs, so that the sessions of one server hold one
// list between them.
var sharedVersions weakshare.Table[string, []string]

// shareVersions returns the shared list equal to vs, vs itself when a
// member holds a NUL (the joined key would be ambiguous).
func shareVersions(vs []string) *[]string {
	key := strings.Join(vs, "\x00")
	if strings.Count(key, "\x00") != len(vs)-1 {
		return &vs
	}
	return sharedVersions.Share(key, &vs) // the live one if there is one
}

// highestCommon returns the newest modern revision in supported that the
// client speaks, "" if none.
func highestCommon(supported []string) string {
	for _, v := range modernVersions {
		if slices.Contains(supported, v) {
			return v
		}
	}
	return ""
}

// ServerVersions returns the server's supportedVersions from
// server/discover in the modern era; nil after an initialize handshake.
func (c *Client) ServerVersions() []string {
	if c.modern == nil {
		return nil
	}
	c.modern.mu.Lock()
	defer c.modern.mu.Unlock()
	if c.modern.supported == nil {
		return nil
	}
	return slices.Clone(*c.modern.supported)
}

// checkProtocolPin validates ClientOptions.ProtocolVersion.
func checkProtocolPin(v string) error {
	if v == "" || v == ProtocolAuto || isModernVersion(v) || IsSupportedProtocolVersion(v) {
		return nil
	}
	return fmt.Errorf("mcp: ClientOptions.ProtocolVersion %q is not one this client speaks (%s, %s, %s)",
		clip(v), ProtocolAuto, strings.Join(modernVersions, ", "), strings.Join(supportedVersions, ", "))
}

// modernHeaders are the HTTP headers the modern era checks against the
// body; -32020 names one of them.
var modernHeaders = []string{"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Param-"}

// headerMismatch turns -32020 into an error naming the header the server
// refused (as its message names it), nil for any other error.
func headerMismatch(method string, err error) error {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != CodeHeaderMismatch {
		return nil
	}
	header := "an HTTP header"
	lower := strings.ToLower(rpcErr.Message)
	for _, h := range modernHeaders {
		if i := strings.Index(lower, strings.ToLower(h)); i >= 0 {
			end := i + strings.IndexFunc(rpcErr.Message[i:]+" ", func(r rune) bool { return r == ' ' || r == '"' || r == ',' || r == ':' })
			header = "the header " + clip(rpcErr.Message[i:end])
			break
		}
	}
	return fmt.Errorf("mcp: %s: the server refused %s of the request (-32020 HeaderMismatch): %w", method, header, err)
}
