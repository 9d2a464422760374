// Package mcptest is a scriptable MCP server for tests: mcpwire's own and
// those of anyone testing an MCP client.
//
// A Server holds tools, resources, resource templates, prompts and a
// completion handler, and serves any number of sessions:
//
//   - in process over an in-memory pipe (Connect, Server.Transport),
//   - on any jsonrpc.Stream (Server.Serve),
//   - as a real child process speaking JSON lines on stdio
//     (Server.ServeStdio, RunIfChild with ChildCommand, or the
//     cmd/mcptest-server program),
//   - over Streamable HTTP (Server.StreamableHTTPHandler) and the legacy
//     HTTP+SSE transport (Server.LegacySSEHandler), both mounted on a
//     loopback httptest server by NewHTTPServer, with scripted failures
//     (HTTPHandler.FailNext, CutNextStream, ExpireSession), hostile
//     answers (HTTPHandler.MisbehaveNext: silent or keep-alive-only event
//     streams, a huge event, an HTML login page, a slow-loris body, a
//     malformed WWW-Authenticate, a redirect) and a log of every request.
//
// A wire recording written by transport.Recorder replays as a scripted
// server (ReadRecording, NewReplay), which turns a bug report into a test.
//
// NewDefault returns a server with a standard set of tools (echo, add,
// slow, fail, bad-output, large, sample, elicit, roots, log, touch,
// add-tool), resources, prompts and completions.
//
// The server speaks MCP with its own small types and its own dispatch loop
// instead of reusing the mcp client's types or the jsonrpc.Conn engine, so
// that a bug in either cannot hide itself by agreeing with its own test
// double.
//
// Faults (see Fault and ParseFaults) make the server misbehave on purpose:
// garbage lines, responses to unknown ids, duplicate responses, crashes,
// requests that are never answered, a flood of stderr, huge messages.
package mcptest
