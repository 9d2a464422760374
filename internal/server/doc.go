// Package server is the project's one implementation of the server half of
// MCP: both eras' handshakes, the method table (tools, resources, prompts,
// completion, logging, tasks), sessions, list_changed, progress,
// cancellation, server→client requests and their modern input requests,
// and serving over JSON lines (stdio, pipes) and Streamable HTTP (with the
// GET listener and the modern listen stream) or legacy HTTP+SSE.
//
// mcptest names its types for tests and arms its faults; the demo's
// example server (NewDefault) and the gateway (package gateway) serve with
// it too. It is internal while its surface is still mcptest's shape:
// faults and scripting hooks sit beside the protocol, and a public server
// API should not carry them.
package server
