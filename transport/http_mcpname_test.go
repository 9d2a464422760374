package transport

import (
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/internal/paramheader"
)

// The scan must give what encoding/json gives, whichever way it decides.
var addressedNameSeeds = []string{
	`{"name":"echo","arguments":{}}`,
	`{"_meta":{"progressToken":1,"name":"no"},"name":"echo","arguments":{"name":["x",{"y":"}"}]}}`,
	` { "NAME" : "a" , "Name":"b" } `,
	`{"name":"a","name":null}`,
	`{"name":null}`,
	`{"name":"a","uri":5}`,
	`{"name":5}`,
	`{"uri":"file:///x","name":"n"}`,
	`{"na\u006de":"esc"}`,
	`{"name":"quote\"d"}`,
	`{"name":"naïve"}`,
	"{\"name\":\"bad\xffutf8\"}",
	`{"ſame":"x","name":"y"}`,
	`{"name":"x"`,
	`null`,
	`[]`,
	`"name"`,
	``,
	`{}`,
	`{"arguments":[1,2,{"a":[true,false,null,-1.5e3]}],"name":"last"}`,
}

func TestAddressedNameAgreesWithEncodingJSON(t *testing.T) {
	for _, p := range addressedNameSeeds {
		for _, m := range []string{"tools/call", "prompts/get", "resources/read"} {
			checkAddressedName(t, m, []byte(p))
		}
	}
	// The seeds must take both ways, or the comparison proves little.
	if _, _, sure := scanAddressedName([]byte(`{"name":"echo"}`), "name"); !sure {
		t.Error("plain params were left to encoding/json")
	}
	if _, _, sure := scanAddressedName([]byte(`{"name":"quote\"d"}`), "name"); sure {
		t.Error("an escaped name was not left to encoding/json")
	}
}

func FuzzAddressedName(f *testing.F) {
	for _, p := range addressedNameSeeds {
		f.Add(p, true)
		f.Add(p, false)
	}
	f.Fuzz(func(t *testing.T, params string, uri bool) {
		m := "tools/call"
		if uri {
			m = "resources/read"
		}
		checkAddressedName(t, m, []byte(params))
	})
}

func checkAddressedName(t *testing.T, method string, params []byte) {
	t.Helper()
	key := "name"
	if method == "resources/read" {
		key = "uri"
	}
	wantV, wantOK := unmarshalAddressedName(key, params)
	gotV, gotOK := addressedName(method, params)
	if gotV != wantV || gotOK != wantOK {
		t.Errorf("addressedName(%s, %q) = %q, %v; encoding/json gives %q, %v", method, params, gotV, gotOK, wantV, wantOK)
	}
}

func TestAddressedNameOfPlainParamsAllocatesOnlyTheName(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are not counted under the race detector (see raceEnabled)")
	}
	params := []byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":7},"name":"echo","arguments":{"text":"hi"}}`)
	if n := testing.AllocsPerRun(100, func() { addressedName("tools/call", params) }); n > 1 {
		t.Errorf("%v allocations to find the name, want at most 1", n)
	}
}

// A postCall reuses its header from POST to POST: nothing of one request
// may stay on the next, and the shared header stays as it was.
func TestFillStatelessHeaderReused(t *testing.T) {
	shared := http.Header{"Accept": {"x"}, "Mcp-Protocol-Version": {"2026-07-28"}}
	out := http.Header{}
	var vals, sessionVals [2]string
	fill := func(head postHead, method string, params []byte, mirror []paramheader.Header) {
		out = head.fill(out, &sessionVals)
		addStatelessHeader(out, method, params, mirror, &vals)
	}
	fill(postHead{base: shared, session: "s1"}, "tools/call", []byte(`{"name":"caf\u00e9"}`), []paramheader.Header{{Name: "Region", Value: "eu"}})
	if out.Get("Mcp-Name") != "=?base64?Y2Fmw6k=?=" || out.Get("Mcp-Param-Region") != "eu" || out.Get("Mcp-Method") != "tools/call" || out.Get("Mcp-Session-Id") != "s1" {
		t.Fatalf("first header %v", out)
	}
	fill(postHead{base: shared}, "tools/list", nil, nil)
	if len(out) != 3 || out.Get("Mcp-Method") != "tools/list" || out.Get("Accept") != "x" || out.Get("Mcp-Protocol-Version") != "2026-07-28" {
		t.Errorf("reused header %v, want the shared one and Mcp-Method only", out)
	}
	if len(shared) != 2 || shared.Get("Accept") != "x" {
		t.Errorf("the shared header was changed: %v", shared)
	}
	if raceEnabled {
		return // allocations are not counted under the race detector (see raceEnabled)
	}
	params := []byte(`{"name":"echo"}`)
	head := postHead{base: shared, session: "s1", version: "2025-11-25"}
	if n := testing.AllocsPerRun(100, func() { fill(head, "tools/call", params, nil) }); n > 1 {
		t.Errorf("%v allocations to rebuild the header, want at most 1 (the name)", n)
	}
}
