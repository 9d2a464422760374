package mcp

import (
	"encoding/json"
	"testing"
)

var toolsListSamples = []string{
	`{"tools":[]}`,
	`{"tools":[{"name":"read","description":"Reads a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]}`,
	` { "tools" : [ { "name" : "a" , "inputSchema" : { "type" : "object" } } , { "name" : "b" } ] , "nextCursor" : "c2" } `,
	`{"tools":[{"name":"esc","title":"T\u00e9","description":"line\none \"q\" \\ \/","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"t":{"type":"number"}}}}]}`,
	`{"tools":[{"name":"full","annotations":{"title":"Full","readOnlyHint":true,"destructiveHint":false},"execution":{"taskSupport":"optional"},"icons":[{"src":"https://x/i.png","sizes":["48x48"],"theme":"dark"}],"_meta":{"k":[1,{"z":null}]},"inputSchema":{}}]}`,
	`{"tools":[{"name":"x","unknown":{"deep":[1,2,{"a":"}"}]},"alsoUnknown":null}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}},"ttlMs":60000,"cacheScope":"public"}`,
	`{"tools":[{}],"nextCursor":"` + "\xff" + `"}`,
	`{"tools":[{"name":"n","annotations":null,"icons":null,"_meta":null}]}`,
	`{"nextCursor":"","tools":[{"description":"no name"}]}`,
	`{}`,
}

// The one-pass decoder and encoding/json agree on every page it takes.
func TestDecodeToolsListMatchesEncodingJSON(t *testing.T) {
	for _, raw := range toolsListSamples {
		if !checkFastDecode(t, []byte(raw), uncheckedToolsList) || !checkFastDecode(t, []byte(raw), checkedToolsList) {
			t.Errorf("%s: not taken by the fast path", raw)
		}
	}
}

// Pages whose decoding depends on encoding/json's finer rules are left to
// it, and nothing is assigned.
func TestDecodeToolsListDeclines(t *testing.T) {
	for _, raw := range []string{
		`{"tools":null}`,
		`{"Tools":[]}`,
		`{"tools":[],"tools":[]}`,
		`{"tools":[{"name":"a","name":"b"}]}`,
		`{"tools":[{"Name":"a"}]}`,
		`{"tools":[{"n\u0061me":"a"}]}`,
		`{"tools":[{"name":null}]}`,
		`{"tools":[{"name":1}]}`,
		`{"tools":[{"name":"a","inputSchema":null}]}`,
		`{"tools":[{"name":"a","inputSchema":{"type":}}]}`,
		`{"tools":[{"name":"a","annotations":{"readOnlyHint":"yes"}}]}`,
		`{"tools":[{"name":"a","unknown":[1,]}]}`,
		`{"tools":[{"name":"a"},]}`,
		`{"tools":[{"name":"a"}]} trailing`,
		`{"tools":[],"ttlMs":"soon"}`,
		`{"tools":[{"name":"a","description":"` + "\x01" + `"}]}`,
		`{"tools":[{"name":"a"`,
		`[]`,
	} {
		checkDeclined(t, []byte(raw), uncheckedToolsList)
		if json.Valid([]byte(raw)) {
			checkDeclined(t, []byte(raw), checkedToolsList)
		}
	}
}

// Whatever the one-pass decoder accepts, encoding/json accepts too, with
// the same result.
func FuzzDecodeToolsList(f *testing.F) {
	for _, raw := range toolsListSamples {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastDecode(t, data, uncheckedToolsList)
		if json.Valid(data) {
			// What the codec lets through: the decoder skips values
			// instead of checking them.
			checkFastDecode(t, data, checkedToolsList)
		}
	})
}

func uncheckedToolsList(raw []byte, res *ListToolsResult) bool {
	return decodeToolsList(raw, res, false)
}
func checkedToolsList(raw []byte, res *ListToolsResult) bool { return decodeToolsList(raw, res, true) }
