package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

var discoverResultSamples = []string{
	`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"canned","version":"1.0.0"}}}`,
	`{"supportedVersions":["2026-07-28","2027-01-01"],"capabilities":{"prompts":{"listChanged":true},"resources":{"subscribe":true},"logging":{},"completions":{}},"instructions":"Use \"x\".\n","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","title":"T","version":"2","description":"d","websiteUrl":"https://x.test"},"vendor/other":{"k":"v"}}}`,
	` { "_meta" : { } , "capabilities" : { } , "supportedVersions" : [ ] } `,
	`{"supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"version":"1"}}}`,
	`{}`,
}

// The fast decoder and encoding/json agree on every result of the common
// shape.
func TestDecodeDiscoverResultMatchesEncodingJSON(t *testing.T) {
	for _, raw := range discoverResultSamples {
		if !checkFastDecode(t, []byte(raw), decodeDiscoverResult) {
			t.Errorf("%s: not taken by the fast path", raw)
		}
	}
}

// Anything outside the common shape is left to encoding/json, and the
// result is not touched.
func TestDecodeDiscoverResultDeclines(t *testing.T) {
	for _, raw := range []string{
		`{"supportedVersions":null}`,
		`{"supportedVersions":["a",1]}`,
		`{"supportedVersions":["a"],"supportedVersions":["b"]}`,
		`{"SupportedVersions":["a"]}`,
		`{"supportedVersions":["\u0032026-07-28"]}`,
		`{"supportedVersions":["a",]}`,
		`{"ttlMs":5}`,
		`{"cacheScope":"public"}`,
		`{"resultType":5}`,
		`{"capabilities":{"tools":null}}`,
		`{"_meta":null}`,
		`{"_meta":{"k":"v"}}`,
		`{"_meta":{"k":{"n":1}}}`,
		`{"_meta":{"k":{},"k":{}}}`,
		`{"_meta":{"k":{"a":"1","a":"2"}}}`,
		`{"_meta":{"io.modelcontextprotocol/serverInfo":{"Name":"n"}}}`,
		`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"n","icons":[]}}}`,
		`{"supportedVersions":["a"]} x`,
		`{"supportedVersions":["a"]`,
		`[]`,
		`null`,
	} {
		res := discoverResult{Instructions: "untouched"}
		if decodeDiscoverResult([]byte(raw), &res) {
			t.Errorf("%s: taken by the fast path", raw)
		}
		if res.Instructions != "untouched" {
			t.Errorf("%s: the result was changed", raw)
		}
	}
}

// The serverInfo the fast path takes is the one observe takes from the
// same result, and so is the raw value later results are compared with.
func TestDecodeDiscoverServerInfoMatchesObserve(t *testing.T) {
	for _, raw := range discoverResultSamples {
		var res discoverResult
		info, ok := decodeDiscover([]byte(raw), &res)
		if !ok {
			t.Fatalf("%s: not taken by the fast path", raw)
		}
		var fast, slow modernSession
		if info != nil {
			fast.tookServerInfo(implementationOf(res.Meta[metaServerInfo]), string(info))
		}
		slow.observe([]byte(raw))
		if !reflect.DeepEqual(fast.serverInfo(), slow.serverInfo()) {
			t.Errorf("%s: serverInfo %+v, observe takes %+v", raw, fast.serverInfo(), slow.serverInfo())
		}
		f, s := fast.info.Load(), slow.info.Load()
		if (f == nil) != (s == nil) || (f != nil && f.raw != s.raw) {
			t.Errorf("%s: the raw serverInfo kept differs from observe's", raw)
		}
	}
}

// Whatever the fast decoder accepts, encoding/json accepts too, with the
// same result.
func FuzzDecodeDiscoverResult(f *testing.F) {
	for _, s := range discoverResultSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFastDecode(t, raw, decodeDiscoverResult)
		// The _meta bytes a session keeps instead of res.Meta decode to
		// the same map.
		var res discoverResult
		if _, meta, ok := decodeDiscoverMeta(raw, &res); ok && res.Meta != nil {
			var again map[string]any
			if err := json.Unmarshal(meta, &again); err != nil || !reflect.DeepEqual(again, res.Meta) {
				t.Fatalf("%s: the raw _meta %s decodes to %v (%v), want %v", raw, meta, again, err, res.Meta)
			}
		}
	})
}

// encodeMeta writes the members encoding/json would, for every shape of
// the capabilities and client info, the reflective ones included.
func TestEncodeMetaWithLevelMatchesEncodingJSON(t *testing.T) {
	infos := []Implementation{
		{Name: "c", Version: "1"},
		{Name: "é \"q\" <&>", Title: "T", Version: "", Description: "d\n", WebsiteURL: "https://x.test/?a=1&b=2"},
		{Name: "i", Version: "1", Icons: []Icon{{Src: "https://x.test/i.png"}}},
	}
	for flags := range 256 {
		for _, info := range infos {
			for _, level := range []LoggingLevel{"", "debug"} {
				p := paramsVariant(uint8(flags), info.Name, info.Title, info.Version, info.Description, info.WebsiteURL)
				p.ClientInfo.Icons = info.Icons
				if flags%7 == 0 {
					p.Capabilities.Tasks = &ClientTasksCapability{}
				}
				m := &modernSession{hello: &modernHello{info: p.ClientInfo, caps: p.Capabilities}}
				if err := m.encodeMeta(ModernProtocolVersion, level); err != nil {
					t.Fatal(err)
				}
				caps, _ := json.Marshal(p.Capabilities)
				ci, _ := json.Marshal(p.ClientInfo)
				want := fmt.Sprintf("%q:%q,%q:%s,%q:%s", metaProtocolVersion, ModernProtocolVersion, metaClientCapabilities, caps, metaClientInfo, ci)
				if level != "" {
					want += fmt.Sprintf(",%q:%q", metaLogLevel, level)
				}
				if got := m.meta.Load().members; got != want {
					t.Fatalf("flags %d, info %+v, level %q:\ngot  %s\nwant %s", flags, info, level, got, want)
				}
			}
		}
	}
}
