package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var textResultSamples = []string{
	`{"content":[{"type":"text","text":"hello, world"}]}`,
	`{"content":[{"type":"text","text":"Echo: hello"}],"isError":false}`,
	` { "isError" : true , "content" : [ { "text" : "line\none\t\"two\"\\ \/ \r\b\f" , "type" : "text" } ] } `,
	`{"content":[{"type":"text","text":""},{"type":"text","text":"héllo ✓"}]}`,
	`{"content":[]}`,
	`{"content":[{"type":"text","text":"hello, world"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1.0.0"}}}`,
	`{"_meta":{"a":[1,{"b":"}\"]"}],"c":null},"content":[{"type":"text","text":"x"}],"resultType":"complete"}`,
}

// The one-pass decoder and encoding/json agree on every result of the
// common shape.
func TestDecodeTextResultMatchesEncodingJSON(t *testing.T) {
	for _, raw := range textResultSamples {
		if !checkFastDecode(t, []byte(raw), copiedTextResult) || !checkFastDecode(t, []byte(raw), inPlaceTextResult) {
			t.Errorf("%s: not taken by the fast path", raw)
		}
	}
}

// checkFastDecode decodes raw with fast and, if fast takes it, fails the
// test unless encoding/json decodes it too, to the same value. It reports
// whether fast took raw.
func checkFastDecode[T any](t *testing.T, raw []byte, fast func([]byte, *T) bool) bool {
	t.Helper()
	var got T
	if !fast(raw, &got) {
		return false
	}
	var want T
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("fast path accepted %q, encoding/json says %v", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nfast %#v\nslow %#v", raw, got, want)
	}
	return true
}

// Anything outside the common shape is left to encoding/json untouched.
func TestDecodeTextResultDeclines(t *testing.T) {
	for _, raw := range []string{
		`{}`,
		`{"content":null}`,
		`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]}`,
		`{"content":[{"type":"text","text":"x","annotations":{"priority":1}}]}`,
		`{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1}}`,
		`{"Content":[{"type":"text","text":"x"}]}`,
		`{"content":[{"type":"text","text":"x"}],"content":[]}`,
		`{"content":[{"type":"text","type":"text","text":"x"}]}`,
		`{"content":[{"type":"text","text":"\u00e9"}]}`,
		`{"content":[{"type":"text","text":"bad \x"}]}`,
		`{"content":[{"type":"text","text":"` + "\xff" + `"}]}`,
		`{"content":[{"type":"text","text":"` + "\x01" + `"}]}`,
		`{"content":[{"type":"text"}]}`,
		`{"content":[{"type":"text","text":"x"}]} trailing`,
		`{"content":[{"type":"text","text":"x"},]}`,
		`{"content":[{"type":"text","text":"x"}],"isError":1}`,
		`{"content":[{"type":"text","text":"unterminated}]}`,
		`{"content":[],"_meta":null}`,
		`{"content":[],"_meta":{"a":1},"_meta":{}}`,
		`{"content":[],"_meta":{"a":}}`,
		`{"content":[],"_meta":{"a":"}`,
		`{"content":[],"resultType":1}`,
		`{"content":[],"resultType":"a","resultType":"b"}`,
	} {
		checkDeclined(t, []byte(raw), copiedTextResult)
		checkUntouched(t, []byte(raw))
	}
}

// checkDeclined fails the test if fast takes raw, or assigns anything
// while declining it.
func checkDeclined[T any](t *testing.T, raw []byte, fast func([]byte, *T) bool) {
	t.Helper()
	var r, zero T
	if fast(raw, &r) {
		t.Errorf("%s: taken by the fast path as %#v", raw, r)
	}
	if !reflect.DeepEqual(r, zero) {
		t.Errorf("%s: declined but assigned %#v", raw, r)
	}
}

func TestDecodeTextResultLargeText(t *testing.T) {
	text := strings.Repeat(`The quick brown fox.\n`, 100000)
	raw := `{"content":[{"type":"text","text":"` + text + `"}]}`
	for _, inPlace := range []bool{false, true} {
		var r CallToolResult
		if !decodeTextResult([]byte(raw), &r, inPlace) {
			t.Fatal("not taken by the fast path")
		}
		if want := strings.ReplaceAll(text, `\n`, "\n"); r.Content[0].Text != want {
			t.Fatalf("in place %v: text of %d bytes, want %d", inPlace, len(r.Content[0].Text), len(want))
		}
	}
}

// Whatever the one-pass decoder accepts, encoding/json accepts too, with
// the same result.
func FuzzDecodeTextResult(f *testing.F) {
	for _, raw := range textResultSamples {
		f.Add([]byte(raw))
	}
	f.Add([]byte(`{"content":[{"type":"text","text":"a\u0041"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastDecode(t, data, copiedTextResult)
		checkFastDecode(t, data, inPlaceTextResult)
		checkUntouched(t, data)
	})
}

func copiedTextResult(raw []byte, res *CallToolResult) bool { return decodeTextResult(raw, res, false) }

// inPlaceTextResult decodes a copy of raw in place, which the comparison
// with encoding/json that follows needs unchanged. Only a result the
// codec checked is decoded in place (decodeResult), so only valid JSON is
// given to it here; checkUntouched and FuzzCheckedStringEnd give it the
// rest.
func inPlaceTextResult(raw []byte, res *CallToolResult) bool {
	return json.Valid(raw) && decodeTextResult(bytes.Clone(raw), res, true)
}

// checkUntouched: a result the in-place decoder declines is left as it
// came, for encoding/json to read.
func checkUntouched(t *testing.T, raw []byte) {
	t.Helper()
	in := bytes.Clone(raw)
	var r CallToolResult
	if !decodeTextResult(in, &r, true) && !bytes.Equal(in, raw) {
		t.Fatalf("%q declined, but changed to %q", raw, in)
	}
}
