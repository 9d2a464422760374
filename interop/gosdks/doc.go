// Package gosdks holds mcpwire's interop tests against MCP servers that
// nobody here wrote: servers built with the official go-sdk and with
// mcp-go, over stdio and Streamable HTTP (stateful and stateless), in
// both protocol eras. It is a nested module so that the repository's
// root module never depends on another MCP SDK.
package gosdks
