package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
	"unsafe"
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
		checkDeclined(t, []byte(raw), ownedToolsList)
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
		// A page left unchecked by the codec: what the decoder accepts
		// must be valid JSON, as encoding/json's accepting it shows.
		checkFastDecode(t, data, ownedToolsList)
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

// ownedToolsList decodes a copy of raw, whose strings the decoder makes
// over it: the comparison that follows reads raw itself.
func ownedToolsList(raw []byte, res *ListToolsResult) bool {
	return decodeToolsListOwned(bytes.Clone(raw), res)
}

// A checked page is the client's own: its plain strings are made over it.
// Any other page may be reused by its caller, so its strings must be
// copies that survive the page being overwritten.
func TestDecodeToolsListStringsOwnership(t *testing.T) {
	const page = `{"tools":[{"name":"read","title":"Read","description":"Reads a file.","inputSchema":{}}]}`
	want := Tool{Name: "read", Title: "Read", Description: "Reads a file."}

	raw := []byte(page)
	var own ListToolsResult
	if !decodeToolsList(raw, &own, true) {
		t.Fatal("checked page: not taken by the fast path")
	}
	for _, s := range []string{own.Tools[0].Name, own.Tools[0].Title, own.Tools[0].Description} {
		if !within(raw, s) {
			t.Errorf("checked page: %q is a copy, not a string over the page", s)
		}
	}

	raw = []byte(page)
	var owned ListToolsResult
	if !decodeToolsListOwned(raw, &owned) {
		t.Fatal("owned page: not taken by the fast path")
	}
	for _, s := range []string{owned.Tools[0].Name, owned.Tools[0].Title, owned.Tools[0].Description} {
		if !within(raw, s) {
			t.Errorf("owned page: %q is a copy, not a string over the page", s)
		}
	}

	raw = []byte(page)
	var lent ListToolsResult
	if !decodeToolsList(raw, &lent, false) {
		t.Fatal("unchecked page: not taken by the fast path")
	}
	for i := range raw {
		raw[i] = 'x'
	}
	got := lent.Tools[0]
	if got.Name != want.Name || got.Title != want.Title || got.Description != want.Description {
		t.Errorf("unchecked page overwritten after decoding: got %q %q %q, want %q %q %q",
			got.Name, got.Title, got.Description, want.Name, want.Title, want.Description)
	}
}

// within reports whether s's bytes lie inside b.
func within(b []byte, s string) bool {
	if len(s) == 0 || len(b) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&b[0]))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(b))
}
