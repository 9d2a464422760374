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
// server (NewReplay), which turns a bug report into a test.
//
// # Protocol eras
//
// The server speaks both eras of MCP (Options.Eras selects BothEras, the
// default, ModernOnly or LegacyOnly):
//
//   - legacy, 2024-11-05 through 2025-11-25: the initialize handshake,
//     sessions (Mcp-Session-Id over HTTP), server→client requests, the GET
//     listener, resumable streams;
//   - modern, 2026-07-28 (ModernProtocolVersion): no handshake and no
//     session. server/discover answers {supportedVersions, capabilities,
//     instructions}; every request carries its protocol version, client
//     capabilities and client info in _meta (checked: -32022 for an
//     unsupported version, -32602 for a malformed _meta); every result has
//     resultType and the serverInfo in _meta, and the cacheable ones ttlMs
//     and cacheScope (Server.SetCacheHint). ping, logging/setLevel and
//     resources/subscribe are gone (-32601); the log level travels in each
//     request's _meta; a missing resource is -32602.
//
// In BothEras a stdio connection is legacy once it sent initialize, and a
// request is modern when it is server/discover or carries the protocol
// version in _meta. Over HTTP a POST without Mcp-Session-Id is modern when
// its MCP-Protocol-Version is not a legacy version or its _meta carries
// one. ModernOnly rejects initialize: with -32022 naming the supported
// versions on stdio, with 400 -32020 over HTTP (it lacks the headers).
// LegacyOnly behaves exactly as the server did before the modern era.
//
// Modern Streamable HTTP serves each POST on its own: the headers
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and the Mcp-Param-{name} of
// tool fields marked x-mcp-header (plain or =?base64?…?=) must match the
// body, or the answer is 400 with -32020 naming the header; an unknown
// method is 404 with -32601; -32020..-32022 errors are 400 JSON replies.
// Closing a reply stream cancels its request (HTTPHandler.CancelledByClose).
//
// Server→client requests become multi round-trip requests (MRTR) in the
// modern era: Session.Elicit, CreateMessage and ListRoots called from a
// tools/call, prompts/get or resources/read handler end the request with
// {resultType: "input_required", inputRequests, requestState}, and the
// client's retry with inputResponses runs the handler again with the
// answers (see ErrInputRequired), so one scripted handler serves both eras.
// A capability the request did not declare gives -32021; Server.ShedLoad
// answers with an empty inputRequests. subscriptions/listen delivers the
// list_changed and resources/updated notifications the client opted in to,
// tagged with the subscription id. Server.ModernRequests records every
// modern request with its _meta decoded.
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
// The implementation is the project's server core (internal/server), which
// the demo's example server and mcpwire serve's gateway use as well; this
// package names its types for tests.
//
// # Reading the documentation
//
// Server, HTTPServer, Session, ToolRequest and the other types here are
// aliases of the core's, so go doc ./mcptest lists them without their
// fields and methods (Server.AddTool, Server.Transport, HTTPServer.URL,
// Session.Elicit, …). Those are documented on the core:
//
//	go doc github.com/mcpwire/mcpwire/internal/server Server
//	go doc -all github.com/mcpwire/mcpwire/internal/server
//
// go doc reads an internal package from any module that requires mcpwire;
// only importing it is refused. The few handler types of the core not
// named here (MethodHandler, ListItems, ListenSubscriber) are func types:
// pass a func literal of their signature.
//
// Faults (see Fault and ParseFaults) make the server misbehave on purpose:
// garbage lines, responses to unknown ids, duplicate responses, crashes,
// requests that are never answered, a flood of stderr, huge messages.
package mcptest
