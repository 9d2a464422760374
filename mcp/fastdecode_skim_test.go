package mcp

import (
	"encoding/json"
	"testing"

	"github.com/mcpwire/mcpwire/internal/seam"
)

// skimmed decodes raw as the gateway asks for it (seam.RawToolResult with
// Skim, the codec having checked raw) and reports whether it was skimmed.
func skimmed(t *testing.T, raw []byte) (CallToolResult, bool) {
	t.Helper()
	var res CallToolResult
	dst := &seam.RawToolResult{Skim: true}
	if err := (&rawCallToolResult{res: &res, dst: dst}).decode(raw, true); err != nil {
		return res, false
	}
	if dst.Skimmed && string(dst.Bytes) != string(raw) {
		t.Fatalf("%s: skimmed, but Bytes is %q", raw, dst.Bytes)
	}
	return res, dst.Skimmed
}

// checkSkim holds the skim to the decoder it stands in for: a valid result
// is skimmed exactly when the one-pass decoder takes it and it is not an
// error, and then nothing is made of its content.
func checkSkim(t *testing.T, raw []byte) {
	t.Helper()
	if !json.Valid(raw) {
		return // the codec would have refused it before any decoding
	}
	res, skim := skimmed(t, raw)
	var full CallToolResult
	took := decodeTextResultMeta(raw, &full, false, true)
	if want := took && !full.IsError; skim != want {
		t.Fatalf("%s: skimmed %v, want %v (the decoder took it: %v, isError %v)", raw, skim, want, took, full.IsError)
	}
	if skim && (len(res.Content) != 0 || res.IsError || res.Meta != nil || res.StructuredContent != nil) {
		t.Fatalf("%s: skimmed into %#v, want nothing made", raw, res)
	}
}

func TestSkimTakesWhatTheDecoderTakes(t *testing.T) {
	for _, raw := range textResultSamples {
		checkSkim(t, []byte(raw))
	}
	for _, raw := range []string{
		`{"content":[{"type":"text","text":"bad \x"}]}`,
		`{"content":[{"type":"text","text":"\u00e9"}]}`,
		`{"content":[{"type":"text","text":"x"}],"isError":true}`,
		`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]}`,
		`{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1}}`,
	} {
		checkSkim(t, []byte(raw))
	}
	if _, skim := skimmed(t, []byte(`{"content":[{"type":"text","text":"a\tb"}]}`)); !skim {
		t.Error("a text with a short escape was not skimmed")
	}
	if _, skim := skimmed(t, []byte(`{"content":[{"type":"text","text":"x"}],"isError":true}`)); skim {
		t.Error("an error result was skimmed; its text is for the hooks")
	}
}

// The skim accepts exactly what the one-pass decoder accepts (and is not
// an error), for any valid input.
func FuzzSkimToolResult(f *testing.F) {
	for _, raw := range textResultSamples {
		f.Add([]byte(raw))
	}
	f.Add([]byte(`{"content":[{"type":"text","text":"a\\u0041"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSkim(t, data)
	})
}
