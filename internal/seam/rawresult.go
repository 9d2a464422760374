package seam

import "context"

// RawToolResult is how the gateway (`mcpwire serve`) gets an upstream's
// tools/call result as the upstream sent it, besides the decoded one, to
// pass it on without encoding it again (bench/NOTES.md, "The gateway
// (#35), third round"). It travels in the call's context because the call
// goes through package manager, which has no reason to know of it; it is
// private to the module so that mcp's exported API does not grow a raw
// result that every caller would have to keep in line with the decoded
// one.
type RawToolResult struct {
	// Bytes is the result object as received, set by the MCP client once
	// the result decoded and passed its checks; nil if the call took
	// another route (a task, an error) or failed.
	Bytes []byte
	// Skim, set by the caller, asks the client to only check a result
	// of the common shape (text blocks, isError false), which the
	// caller passes on as Bytes without reading its content, rather than
	// decode its texts into strings. Skimmed reports that it did: the
	// decoded result then has no Content, and a caller that needs it
	// decodes Bytes itself.
	Skim, Skimmed bool
}

type rawToolResultKey struct{}

// WithRawToolResult asks the MCP client's CallTool under ctx to fill dst.
func WithRawToolResult(ctx context.Context, dst *RawToolResult) context.Context {
	return context.WithValue(ctx, rawToolResultKey{}, dst)
}

// RawToolResultOf is the destination WithRawToolResult put in ctx, or nil.
func RawToolResultOf(ctx context.Context) *RawToolResult {
	dst, _ := ctx.Value(rawToolResultKey{}).(*RawToolResult)
	return dst
}
