// Package gateway serves a manager's servers as one MCP server: the
// server half of mcpwire serve, usable from Go as well.
//
// Tools of every server are listed under one name each: the server's
// prefix (its name unless Options.Prefixes says otherwise), the separator
// and the tool's own name, or the tool's name alone with NoPrefix. Calls
// are routed to the owning server through the manager, with the host's
// progress token honoured and its cancellation passed on; a server's
// tools/list_changed (or its reconnecting with other tools) becomes the
// gateway's own, one announcement per change of the merged list.
//
// Resources and templates keep their URIs; a URI two servers list stays
// with the server whose name sorts first, and the other's is listed as
// mcpwire://SERVER/URI. Prompts are named as tools are. Reads, prompts,
// completions and subscriptions are routed to the owner; what upstreams
// ask of their client is relayed by a Relay (see Options.Relay).
//
// The protocol (both eras, sessions, Streamable HTTP, stdio) is the
// project's one server core, internal/server, which mcptest also serves
// with.
package gateway
