// Package mcp is the client side of the Model Context Protocol: the
// protocol's types, the initialize handshake with version negotiation, typed
// methods for tools, resources, prompts, completion and logging, handlers
// for the requests a server sends to its client (ping, roots, sampling,
// elicitation), and validation of structured tool output against the tool's
// outputSchema.
//
// A Client sits on one jsonrpc.Conn, which owns ids, deadlines,
// cancellation and progress; a transport (stdio, Streamable HTTP, legacy
// SSE) moves the messages. Connect opens a transport and performs the
// handshake; NewClient performs it over a stream that is already open.
//
// The client does not gate calls on the server's declared capabilities: a
// method is sent even when the server did not announce the feature, and the
// server's answer (usually -32601) comes back as a *jsonrpc.Error. Check
// ServerCapabilities first where that matters.
package mcp
