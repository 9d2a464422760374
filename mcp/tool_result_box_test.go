package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// A result decoded into a oneBlockResult, by any of the decoders CallTool
// uses, ends as decoding into a new CallToolResult with encoding/json
// ends: the room for one block is never seen, not even as an empty
// Content where there was no "content" member.
func FuzzOneBlockResult(f *testing.F) {
	for _, raw := range textResultSamples {
		f.Add([]byte(raw))
	}
	for _, raw := range []string{
		`{}`,
		`{"isError":true}`,
		`{"content":null}`,
		`{"content":[]}`,
		`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
		`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]}`,
		`{"content":[{"type":"text","text":"a"}],"structuredContent":{"n":1}}`,
		`{"content":[{"type":"text","text":"a"}],"content":[]}`,
		`{"content":[{"type":"text","text":"a"}],"_meta":{"k":"v"}}`,
		`{"content":[{"type":"text","text":"a\x"}]}`,
	} {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want CallToolResult
		wantErr := json.Unmarshal(data, &want)
		check := func(how string, box *oneBlockResult, err error) {
			t.Helper()
			box.settle()
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("%q %s: %v; encoding/json: %v", data, how, err, wantErr)
			}
			if err == nil && !reflect.DeepEqual(box.res, want) {
				t.Fatalf("%q %s: %#v; encoding/json: %#v", data, how, box.res, want)
			}
		}
		valid := json.Valid(data)
		if valid {
			box := newOneBlockResult()
			check("checked", box, decodeResult(bytes.Clone(data), &box.res, true))
		}
		box := newOneBlockResult()
		check("unchecked", box, decodeBoxUnchecked(bytes.Clone(data), &box.res))
	})
}

// decodeBoxUnchecked decodes raw as call does a result the codec left
// unchecked.
func decodeBoxUnchecked(raw []byte, res *CallToolResult) error {
	done, err := decodeUnchecked(raw, res)
	if done || err != nil {
		return err
	}
	return decodeResult(raw, res, true)
}

// The room is what a one-block result's block is decoded into; a second
// block moves the blocks out of it.
func TestOneBlockResultUsesItsRoom(t *testing.T) {
	box := newOneBlockResult()
	if err := decodeResult([]byte(`{"content":[{"type":"text","text":"a"}]}`), &box.res, true); err != nil {
		t.Fatal(err)
	}
	box.settle()
	if len(box.res.Content) != 1 || &box.res.Content[0] != &box.one[0] || box.res.Content[0].Text != "a" {
		t.Fatalf("one block: %#v, not in the room", box.res.Content)
	}
	box.reset()
	if err := decodeResult([]byte(`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`), &box.res, true); err != nil {
		t.Fatal(err)
	}
	box.settle()
	if len(box.res.Content) != 2 || box.res.Content[1].Text != "b" {
		t.Fatalf("two blocks: %#v", box.res.Content)
	}
}
