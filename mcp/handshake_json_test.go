package mcp

import (
	"encoding/json"
	"testing"
)

// paramsVariant builds initialize params from a bit set of capability
// choices and the client info's strings.
func paramsVariant(flags uint8, name, title, version, description, website string) initializeParams {
	p := initializeParams{
		ProtocolVersion: LatestLegacyProtocolVersion,
		ClientInfo:      Implementation{Name: name, Title: title, Version: version, Description: description, WebsiteURL: website},
	}
	c := &p.Capabilities
	if flags&1 != 0 {
		c.Roots = &RootsCapability{ListChanged: flags&2 != 0}
	}
	if flags&4 != 0 {
		c.Sampling = &SamplingCapability{}
		if flags&8 != 0 {
			c.Sampling.Context = &EmptyObject{}
		}
		if flags&16 != 0 {
			c.Sampling.Tools = &EmptyObject{}
		}
	}
	if flags&32 != 0 {
		c.Elicitation = &ElicitationCapability{}
		if flags&64 != 0 {
			c.Elicitation.Form = &EmptyObject{}
		}
		if flags&128 != 0 {
			c.Elicitation.URL = &EmptyObject{}
		}
	}
	return p
}

// checkParamsEncoding fails unless appendInitializeParams writes p byte
// for byte as json.Marshal does.
func checkParamsEncoding(t *testing.T, p initializeParams) {
	t.Helper()
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := appendInitializeParams([]byte("prefix"), &p)
	if !ok {
		t.Fatalf("declined params it handles: %s", want)
	}
	if string(got) != "prefix"+string(want) {
		t.Fatalf("encoding differs\n got %s\nwant prefix%s", got, want)
	}
}

// Every combination of the capabilities the encoder writes, with plain
// and awkward client info, comes out as encoding/json writes it.
func TestAppendInitializeParamsMatchesEncodingJSON(t *testing.T) {
	infos := [][5]string{
		{"mcpwire", "", "1.0.0", "", ""},
		{"agent", "Agent <&> \"quoted\"", "2.0", "line\nbreak\ttab \u2028 é ✓", "https://example.com/?a=1&b=2"},
		{"bad\xffutf8", "\x00\x1f", "v", "\\back\\slash", "x"},
	}
	for flags := range 256 {
		for _, in := range infos {
			checkParamsEncoding(t, paramsVariant(uint8(flags), in[0], in[1], in[2], in[3], in[4]))
		}
	}
}

// Params with parts the encoder leaves to encoding/json are declined, and
// nothing is appended.
func TestAppendInitializeParamsDeclines(t *testing.T) {
	for name, edit := range map[string]func(p *initializeParams){
		"tasks":        func(p *initializeParams) { p.Capabilities.Tasks = &ClientTasksCapability{} },
		"experimental": func(p *initializeParams) { p.Capabilities.Experimental = map[string]json.RawMessage{} },
		"extensions":   func(p *initializeParams) { p.Capabilities.Extensions = map[string]json.RawMessage{} },
		"icons":        func(p *initializeParams) { p.ClientInfo.Icons = []Icon{{Src: "data:,x"}} },
	} {
		p := paramsVariant(255, "n", "", "v", "", "")
		edit(&p)
		got, ok := appendInitializeParams([]byte("x"), &p)
		if ok || string(got) != "x" {
			t.Errorf("%s: ok %v, appended %q; want it declined", name, ok, got[1:])
		}
	}
}

func FuzzAppendInitializeParams(f *testing.F) {
	f.Add(uint8(0), "mcpwire", "", "1.0", "", "")
	f.Add(uint8(255), "a<b", "t\u2029", "\xff", "d\"", "u&")
	f.Fuzz(func(t *testing.T, flags uint8, name, title, version, description, website string) {
		checkParamsEncoding(t, paramsVariant(flags, name, title, version, description, website))
	})
}

var initializeResultSamples = []string{
	`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"canned","version":"1.0.0"}}`,
	`{"protocolVersion":"2025-06-18","capabilities":{"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true},"logging":{},"completions":{}},"serverInfo":{"name":"mcp-servers/everything","title":"Everything Reference Server","version":"2.0.0"},"instructions":"Testing and demonstration server.\n\nSee \"resources\" \/ tools."}`,
	` { "serverInfo" : { "websiteUrl" : "https://x.test" , "description" : "é ✓" , "version" : "1" , "name" : "n" } , "capabilities" : { "resources" : { "listChanged" : false } } , "protocolVersion" : "2024-11-05" } `,
	`{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"","version":""},"instructions":""}`,
	`{}`,
}

// The fast decoder and encoding/json agree on every result of the common
// shape.
func TestDecodeInitializeResultMatchesEncodingJSON(t *testing.T) {
	for _, raw := range initializeResultSamples {
		if !checkFastDecode(t, []byte(raw), decodeInitializeResult) {
			t.Errorf("%s: not taken by the fast path", raw)
		}
	}
}

// Anything outside the common shape is left to encoding/json, and the
// result is not touched.
func TestDecodeInitializeResultDeclines(t *testing.T) {
	for _, raw := range []string{
		`{"protocolVersion":"2025-11-25","_meta":{}}`,
		`{"protocolVersion":"2025-11-25","protocolVersion":"2024-11-05"}`,
		`{"ProtocolVersion":"2025-11-25"}`,
		`{"protocolVersion":null}`,
		`{"protocolVersion":"\u0032025"}`,
		`{"protocolVersion":5}`,
		`{"capabilities":{"experimental":{}}}`,
		`{"capabilities":{"tasks":{}}}`,
		`{"capabilities":{"tools":null}}`,
		`{"capabilities":{"tools":{"listChanged":1}}}`,
		`{"capabilities":{"tools":{"listChanged":true,"listChanged":false}}}`,
		`{"capabilities":{"logging":{"level":"info"}}}`,
		`{"serverInfo":{"name":"n","version":"v","icons":[]}}`,
		`{"protocolVersion":"2025-11-25"} x`,
		`{"protocolVersion":"2025-11-25",}`,
		`{"protocolVersion":"2025-11-25"`,
		`[]`,
	} {
		res := InitializeResult{Instructions: "untouched"}
		if decodeInitializeResult([]byte(raw), &res) {
			t.Errorf("%s: taken by the fast path", raw)
		}
		if res.Instructions != "untouched" {
			t.Errorf("%s: the result was changed", raw)
		}
	}
}

// Whatever the fast decoder accepts, encoding/json accepts too, with the
// same result.
func FuzzDecodeInitializeResult(f *testing.F) {
	for _, s := range initializeResultSamples {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"capabilities":{"logging":{},"completions":{},"prompts":{}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFastDecode(t, raw, decodeInitializeResult)
	})
}

// metaByEncodingJSON is the _meta members as encoding/json writes them,
// what encodeMeta must write whichever way it encodes.
func metaByEncodingJSON(t *testing.T, m *modernSession, version string, level LoggingLevel) string {
	t.Helper()
	members := []struct {
		name string
		v    any
	}{{metaProtocolVersion, version}, {metaClientCapabilities, m.hello.caps}, {metaClientInfo, m.hello.info}}
	if level != "" {
		members = append(members, struct {
			name string
			v    any
		}{metaLogLevel, level})
	}
	var out []byte
	for i, mb := range members {
		name, _ := json.Marshal(mb.name)
		v, err := json.Marshal(mb.v)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, name...), ':'), v...)
	}
	return string(out)
}

// encodeMeta writes the capabilities and client info by hand in the
// common shapes and through encoding/json otherwise; both come out as
// encoding/json writes them.
func TestEncodeMetaMatchesEncodingJSON(t *testing.T) {
	check := func(t *testing.T, p initializeParams, level LoggingLevel) {
		t.Helper()
		m := &modernSession{hello: &modernHello{info: p.ClientInfo, caps: p.Capabilities}}
		if err := m.encodeMeta(ModernProtocolVersion, level); err != nil {
			t.Fatal(err)
		}
		want := metaByEncodingJSON(t, m, ModernProtocolVersion, level)
		if got := m.meta.Load().members; got != want {
			t.Fatalf("encodeMeta differs\n got %s\nwant %s", got, want)
		}
	}
	for flags := range 256 {
		check(t, paramsVariant(uint8(flags), "agent", "Agent <&> \"q\"", "2.0", "é\u2028", "https://x.test/?a=1&b=2"), "")
	}
	check(t, paramsVariant(255, "bad\xffutf8", "", "v", "", ""), LevelDebug)
	declined := paramsVariant(255, "n", "", "v", "", "")
	declined.Capabilities.Tasks = &ClientTasksCapability{}
	declined.Capabilities.Experimental = map[string]json.RawMessage{"x": json.RawMessage(`{}`)}
	declined.ClientInfo.Icons = []Icon{{Src: "data:,x"}}
	check(t, declined, LevelWarning)
}
