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
// The client gates calls on the server's declared capabilities: a method
// whose feature the server did not advertise (prompts, resources or their
// subscribe, logging, completions, tools) is not sent, and fails with an
// error that matches ErrUnsupported, in every era. Methods this package
// does not know go out as asked (Request, Conn).
//
// Callbacks take one shape, func(ctx, value): the ClientOptions
// callbacks, a call's CallOptions.OnProgress and OnNotification alike.
// Client.Conn is the engine beneath: a raw Call there carries the era's
// request _meta as the typed methods' requests do.
//
// Errors wrap with %w and say each prefix once. ErrTimeout is the
// client's own deadline (ClientOptions.Timeout, ToolTimeout and the
// like); a request ended by the caller's ctx deadline matches
// context.DeadlineExceeded instead.
package mcp
