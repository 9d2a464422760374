// Package jsonl frames newline-delimited messages (JSON lines), the wire
// format of MCP's stdio transport: one message per line, no embedded
// newlines, no length prefix.
//
// Reader has no line-length limit unless one is set, so a 64 MiB tool
// result arrives whole; with a limit, an oversized line is skipped and
// reported, and the reader resynchronises at the next newline. Writer
// serialises concurrent writers and lets each give up when its context
// ends, even while the pipe underneath is full.
package jsonl
