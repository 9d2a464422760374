// Package cli is the mcpwire command: one file per command (tools.go,
// call.go, ...), each with its options struct, and the pieces they share,
// named by what they are: target*.go (which servers, how to reach them,
// configured ones included), output*.go (tables, detail views, JSON, content), exitcode*.go
// (errors to exit statuses, the report on stderr), progress.go, args.go and
// schema.go (tool arguments by the tool's inputSchema). root.go picks the
// command; Run is the whole program for main.
package cli
