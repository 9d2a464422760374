// Package canned is the benchmark's MCP server: it answers from replies
// built once at start, so that the clients under test, not the server, set
// the pace. It understands just enough of MCP for the workloads: initialize
// (any protocol revision up to 2025-11-25), server/discover (refused with
// -32601, as every server of 2025 does), ping, tools/list (1,000 tools),
// and tools/call of "echo" (a tiny text) and "big" (a text of
// arguments.size bytes, cached per size).
//
// Requests are decoded with encoding/json into a small struct; replies are
// spliced from pre-encoded bytes around the request's raw id. The same
// Responder serves stdio (ServeStdio) and Streamable HTTP (Handler).
package canned
