package mcp

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

var modernPin = &ClientOptions{ProtocolVersion: ModernProtocolVersion, ClientInfo: Implementation{Name: "tester", Version: "2"}}

// exerciseModern runs the accessors and a few calls on a client pinned to
// the modern era and checks what the server received.
func exerciseModern(t *testing.T, c *Client, received func() []mcptest.ModernRequest) {
	t.Helper()
	ctx := t.Context()
	if c.ProtocolVersion() != ModernProtocolVersion || !slices.Equal(c.ServerVersions(), []string{ModernProtocolVersion}) {
		t.Errorf("ProtocolVersion %q, ServerVersions %q", c.ProtocolVersion(), c.ServerVersions())
	}
	if c.ServerInfo().Name != "mcptest" || c.ServerCapabilities().Tools == nil {
		t.Errorf("ServerInfo %+v, capabilities %+v", c.ServerInfo(), c.ServerCapabilities())
	}
	// The discover result's _meta (kept as bytes when it had the common
	// shape) is decoded as encoding/json decodes it.
	meta := c.InitializeResult().Meta
	info, _ := meta[metaServerInfo].(map[string]any)
	if info["name"] != "mcptest" {
		t.Errorf("InitializeResult().Meta = %v, want the serverInfo named mcptest in it", meta)
	}
	tools, err := c.ListTools(ctx)
	if err != nil || len(tools) == 0 {
		t.Fatalf("ListTools: %d tools, %v", len(tools), err)
	}
	res, err := c.CallTool(ctx, "add", map[string]any{"a": 2, "b": 3}, nil)
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %+v, %v", res, err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := c.SetLogLevel(ctx, LevelWarning); err != nil {
		t.Fatalf("SetLogLevel: %v", err)
	}
	if _, err := c.ListPrompts(ctx); err != nil {
		t.Fatalf("ListPrompts: %v", err)
	}
	reqs := received()
	var methods []string
	for _, r := range reqs {
		methods = append(methods, r.Method)
		if r.ProtocolVersion != ModernProtocolVersion || r.ClientInfo == nil || r.ClientInfo.Name != "tester" || len(r.ClientCapabilities) == 0 {
			t.Errorf("%s carried version %q, info %+v, capabilities %s", r.Method, r.ProtocolVersion, r.ClientInfo, r.ClientCapabilities)
		}
	}
	want := []string{"server/discover", "tools/list", "tools/call", "server/discover", "prompts/list"}
	if !slices.Equal(methods, want) {
		t.Fatalf("server received %q, want %q", methods, want)
	}
	if last := reqs[len(reqs)-1]; last.LogLevel != string(LevelWarning) || reqs[2].LogLevel != "" {
		t.Errorf("log level in _meta: %q after SetLogLevel, %q before", last.LogLevel, reqs[2].LogLevel)
	}
}

func TestModernPinnedPipe(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly, Instructions: "be modern"})
	c, _ := connectMCPTest(t, srv, modernPin)
	if c.Instructions() != "be modern" {
		t.Errorf("Instructions %q", c.Instructions())
	}
	exerciseModern(t, c, srv.ModernRequests)
}

func TestModernPinnedChild(t *testing.T) {
	child := mcptest.ChildCommand()
	child.Env[mcptest.EnvEras] = "modern"
	c, err := Connect(t.Context(), &transport.Command{Command: child.Path, Args: child.Args, Env: child.Env}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ProtocolVersion() != ModernProtocolVersion || c.ServerInfo().Name != "mcptest" {
		t.Fatalf("ProtocolVersion %q, ServerInfo %+v", c.ProtocolVersion(), c.ServerInfo())
	}
	res, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "hi"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %+v, %v", res, err)
	}
}

// A -32022 refusal is retried once with the newest version both speak.
func TestModernUnsupportedVersionRetried(t *testing.T) {
	saved := modernVersions
	modernVersions = []string{"2099-01-01", ModernProtocolVersion}
	t.Cleanup(func() { modernVersions = saved })
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	opts := *modernPin
	opts.ProtocolVersion = "2099-01-01"
	c, _ := connectMCPTest(t, srv, &opts)
	if c.ProtocolVersion() != ModernProtocolVersion {
		t.Fatalf("ProtocolVersion %q after the retry", c.ProtocolVersion())
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.ModernRequests() {
		if r.ProtocolVersion != ModernProtocolVersion {
			t.Errorf("%s sent under %q", r.Method, r.ProtocolVersion)
		}
	}
}

func TestModernNoCommonVersion(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly, ModernVersions: []string{"2099-01-01"}})
	stream, _ := mcptest.Connect(t, srv)
	_, err := NewClient(t.Context(), stream, modernPin)
	var vErr *ProtocolVersionError
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &vErr) || !slices.Equal(vErr.Supported, []string{"2099-01-01"}) || !errors.As(err, &rpcErr) || rpcErr.Code != CodeUnsupportedProtocolVersion {
		t.Fatalf("err = %v, want a ProtocolVersionError listing 2099-01-01", err)
	}
	if !strings.Contains(err.Error(), "server/discover") || !strings.Contains(err.Error(), "2099-01-01") {
		t.Errorf("error %q should name server/discover and the server's versions", err)
	}
}

// A server that refuses the pinned era gives a *ProtocolVersionError that
// names the pin and keeps the server's answer: a caller can tell it from a
// server that could not be reached, and drop the pin.
func TestPinnedEraRefused(t *testing.T) {
	stream, _ := mcptest.Connect(t, mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly}))
	_, err := NewClient(t.Context(), stream, modernPin)
	var vErr *ProtocolVersionError
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &vErr) || vErr.Offered != ModernProtocolVersion || vErr.Supported != nil || !errors.As(err, &rpcErr) {
		t.Fatalf("modern pin, legacy-only server: err = %#v, want a ProtocolVersionError over the server's JSON-RPC error", err)
	}
	if !strings.Contains(err.Error(), `refused protocol version "2026-07-28"`) || !strings.Contains(err.Error(), rpcErr.Message) {
		t.Errorf("error %q should name the pin and the server's answer", err)
	}

	stream, _ = mcptest.Connect(t, mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly}))
	_, err = NewClient(t.Context(), stream, &ClientOptions{ProtocolVersion: "2025-11-25"})
	if !errors.As(err, &vErr) || vErr.Offered != "2025-11-25" || !slices.Equal(vErr.Supported, []string{ModernProtocolVersion}) {
		t.Fatalf("legacy pin, modern-only server: err = %v, want a ProtocolVersionError listing %s", err, ModernProtocolVersion)
	}

	// A server that is gone refused nothing.
	stream, _ = mcptest.Connect(t, mcptest.NewDefault(nil))
	_ = stream.Close()
	if _, err = NewClient(t.Context(), stream, modernPin); err == nil || errors.As(err, &vErr) {
		t.Fatalf("closed stream: err = %v, want no ProtocolVersionError", err)
	}
}

func TestProtocolPinRejected(t *testing.T) {
	stream, _ := mcptest.Connect(t, mcptest.NewDefault(nil))
	_, err := NewClient(t.Context(), stream, &ClientOptions{ProtocolVersion: "latest"})
	if err == nil || !strings.Contains(err.Error(), `ProtocolVersion "latest"`) {
		t.Fatalf("err = %v", err)
	}
}

// A legacy version can be pinned: it is what initialize offers.
func TestLegacyProtocolPin(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	c, session := connectMCPTest(t, srv, &ClientOptions{ProtocolVersion: "2025-03-26"})
	<-session.Initialized()
	if c.ProtocolVersion() != "2025-03-26" || session.ProtocolVersion() != "2025-03-26" || c.ServerVersions() != nil {
		t.Fatalf("client %q, server %q, ServerVersions %q", c.ProtocolVersion(), session.ProtocolVersion(), c.ServerVersions())
	}
}

func TestModernMetaSplice(t *testing.T) {
	m := &modernSession{hello: &modernHello{info: Implementation{Name: "n", Version: "1"}}}
	if err := m.encodeMeta(ModernProtocolVersion, ""); err != nil {
		t.Fatal(err)
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"n","version":"1"}}`
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, "{" + meta + "}"},
		{jsonRaw(` {} `), "{" + meta + "}"},
		{map[string]string{"name": "x"}, "{" + meta + `,"name":"x"}`},
		{jsonRaw(`{"_meta":{"k":1,"io.modelcontextprotocol/protocolVersion":"old"},"a":2}`), `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"n","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28","k":1},"a":2}`},
	} {
		got, err := m.withMeta(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("withMeta(%v) = %s, %v\nwant %s", tc.in, got, err, tc.want)
		}
	}
	if _, err := m.withMeta(jsonRaw(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("array params: %v", err)
	}
}

func jsonRaw(s string) any { return json.RawMessage(s) }

// withMetaFor tells the engine which params it need not check again:
// those the module encoded, whatever _meta adds to them, and never a
// caller's json.RawMessage, which must still be checked (invalid bytes
// there are only found by the engine).
func TestModernMetaKeepsWhatIsChecked(t *testing.T) {
	m := &modernSession{hello: &modernHello{info: Implementation{Name: "n", Version: "1"}}}
	if err := m.encodeMeta(ModernProtocolVersion, ""); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in      any
		checked bool
	}{
		{nil, true},
		{map[string]string{"name": "x"}, true},
		{jsonenc.Encoded(`{"name":"x","arguments":{"a":1}}`), true},
		{jsonenc.Encoded(`{"_meta":{"k":1},"name":"x"}`), true},
		{jsonRaw(`{"name":"x"}`), false},
		{jsonRaw(`{"name":"x",}`), false},
	} {
		got, err := m.withMetaFor(tc.in)
		if err != nil {
			t.Errorf("withMetaFor(%s): %v", tc.in, err)
			continue
		}
		enc, checked := got.(jsonenc.Encoded)
		if _, raw := got.(json.RawMessage); checked == raw || checked != tc.checked {
			t.Errorf("withMetaFor(%s) is a %T, want checked %v", tc.in, got, tc.checked)
			continue
		}
		if checked && !json.Valid(enc) {
			t.Errorf("withMetaFor(%s) = %s, not valid JSON", tc.in, enc)
		}
	}
}

// observe reads every modern result from the server: whatever it gets, it
// must not panic, and it only ever takes a named serverInfo.
func FuzzModernObserve(f *testing.F) {
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`))
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/serverInfo":"serverInfo"}}`))
	f.Add([]byte(`{"_meta":null,"serverInfo":1}`))
	f.Add([]byte(`{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo" : {"name":"s","version":"1"}}}`))
	f.Add([]byte(`{"x":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"t"}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m := &modernSession{}
		m.observe(raw)
		if m.serverInfo().Name == "" && m.serverInfo().Version != "" {
			t.Fatalf("took a nameless serverInfo %+v", m.serverInfo())
		}
		// After a first serverInfo, the shortcut for a repeated one
		// takes what decoding takes.
		const first = `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`
		fast, slow := &modernSession{}, &modernSession{}
		fast.observe(json.RawMessage(first))
		slow.observe(json.RawMessage(first))
		// The same info under a raw value no result repeats: slow
		// decodes whatever comes next.
		slow.info.Store(&takenInfo{raw: "\x00", info: slow.info.Load().info})
		fast.observe(raw)
		slow.observe(raw)
		if !reflect.DeepEqual(fast.serverInfo(), slow.serverInfo()) {
			t.Fatalf("observe(%s) took %+v, decoding takes %+v", raw, fast.serverInfo(), slow.serverInfo())
		}
	})
}

// A result that repeats the serverInfo taken last costs no decoding.
func TestModernObserveRepeat(t *testing.T) {
	m := &modernSession{}
	first := json.RawMessage(`{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`)
	m.observe(first)
	if m.serverInfo().Name != "s" {
		t.Fatalf("serverInfo %+v", m.serverInfo())
	}
	again := json.RawMessage(`{"content":[{"type":"text","text":"x"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo": {"name":"s","version":"1"}}}`)
	if n := testing.AllocsPerRun(100, func() { m.observe(again) }); n != 0 {
		t.Errorf("observing a repeated serverInfo allocated %v times", n)
	}
	m.observe(json.RawMessage(`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"2"}}}`))
	if m.serverInfo().Version != "2" {
		t.Errorf("a changed serverInfo was not taken: %+v", m.serverInfo())
	}
}

// Once the session opened (hello dropped), a log level change rewrites
// only its member: the _meta is what encodeMeta writes with the client's
// info and capabilities still at hand.
func TestSetLogLevelAfterOpen(t *testing.T) {
	hello := &modernHello{info: Implementation{Name: "n", Version: "1"}, caps: ClientCapabilities{Roots: &RootsCapability{ListChanged: true}}}
	want := map[LoggingLevel]string{}
	for _, level := range []LoggingLevel{"", LevelDebug, LevelError} {
		ref := &modernSession{hello: hello}
		if err := ref.encodeMeta(ModernProtocolVersion, level); err != nil {
			t.Fatal(err)
		}
		want[level] = ref.meta.Load().members
	}
	m := &modernSession{hello: hello, version: ModernProtocolVersion}
	if err := m.encodeMeta(ModernProtocolVersion, ""); err != nil {
		t.Fatal(err)
	}
	m.hello = nil // as modernOpened does
	for _, level := range []LoggingLevel{LevelDebug, LevelError, ""} {
		if err := m.setLogLevel(level); err != nil {
			t.Fatal(err)
		}
		if got := m.meta.Load().members; got != want[level] {
			t.Errorf("level %q: _meta %s, want %s", level, got, want[level])
		}
	}
}

// Sessions of one server share its serverInfo and supportedVersions
// rather than holding a copy each (an idle session keeps pointers), and
// what the accessors return is still the caller's own.
func TestModernSessionsShareServerInfo(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	a, _ := connectMCPTest(t, srv, modernPin)
	b, _ := connectMCPTest(t, srv, modernPin)
	if a.modern.info.Load() == nil || a.modern.info.Load() != b.modern.info.Load() {
		t.Errorf("serverInfo %p and %p: not one shared value", a.modern.info.Load(), b.modern.info.Load())
	}
	if a.modern.supported != b.modern.supported {
		t.Errorf("supportedVersions %p and %p: not one shared list", a.modern.supported, b.modern.supported)
	}
	if info := a.ServerInfo(); info.Name == "" || !reflect.DeepEqual(info, b.ServerInfo()) {
		t.Errorf("ServerInfo %+v and %+v", info, b.ServerInfo())
	}
	vs := a.ServerVersions()
	vs[0] = "changed"
	if b.ServerVersions()[0] == "changed" {
		t.Error("ServerVersions handed out the shared list")
	}
}

// ServerInfo hands out a copy of the serverInfo that sessions share: a
// caller that changes an icon's sizes changes nothing for the others.
func TestServerInfoIsTheCallersCopy(t *testing.T) {
	m := &modernSession{}
	m.info.Store(&takenInfo{info: Implementation{Name: "s", Icons: []Icon{{Src: "https://s/i.png", Sizes: []string{"48x48"}}}}})
	got := m.serverInfo()
	got.Icons[0].Src = "changed"
	got.Icons[0].Sizes[0] = "changed"
	if again := m.serverInfo(); again.Icons[0].Src != "https://s/i.png" || again.Icons[0].Sizes[0] != "48x48" {
		t.Errorf("the shared serverInfo changed with a caller's copy: %+v", again.Icons)
	}
}
