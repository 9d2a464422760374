package mcp

import "github.com/mcpwire/mcpwire/internal/latecheck"

// oneBlockResult is a tools/call result allocated with room for one
// content block: most results have exactly one, and the decoders append
// the first block into that room (encoding/json does too, as it reuses a
// slice's array), so the block costs no allocation of its own, which was
// 7% of the client's CPU at 64 callers over stdio (bench/NOTES.md).
type oneBlockResult struct {
	res  CallToolResult
	one  [1]Content
	late latecheck.Params // the call's params, while it runs (see CallTool)
}

func newOneBlockResult() *oneBlockResult {
	b := new(oneBlockResult)
	b.reset()
	return b
}

// reset empties the result before a decoding, leaving it the room.
func (b *oneBlockResult) reset() { b.res = CallToolResult{Content: b.one[:0:1]} }

// settle makes a result that got no "content" member look as decoding
// into a new CallToolResult leaves it: Content nil, not the empty room.
// (A decoder that read "content":[] made a new empty slice.) Nothing for
// a nil b.
func (b *oneBlockResult) settle() {
	if b == nil {
		return
	}
	b.late = latecheck.Params{} // the params and the engine's recheck are not the result's to keep
	if c := b.res.Content; len(c) == 0 && cap(c) == 1 && &c[:1][0] == &b.one[0] {
		b.res.Content = nil
	}
}
