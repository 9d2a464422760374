// Package inspect serves the inspector: a local web page over MCP servers
// (one client, or a manager's servers) that lists their tools, resources
// and prompts, calls tools from forms generated from their input schemas,
// and shows every JSON-RPC message of every server on one live timeline.
//
// The page is plain HTML, CSS and JavaScript embedded in the binary (no
// build step, nothing fetched from the network); live updates reach it by
// server-sent events. The page runs tools and commands on the user's
// behalf, so every request must carry the session's token (a cookie after
// the first visit, scoped to the page's random path, Server.Path, so that
// no other local web server receives it), name this machine and the port
// listened on in its Host header (against DNS rebinding and other local
// servers' pages) and, for anything that changes state and for the event
// stream, come from the page's own origin. There is no CORS.
//
// The wire log is fed through the transport recorder seam: wrap each
// server's transport with transport.Record(t, transport.NewRecorder(w),
// name) where w is the Wire given in Options, so that what the page shows
// and exports is exactly what --record writes, secrets redacted.
package inspect
