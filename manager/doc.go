// Package manager runs many MCP servers for one client, as a coding agent
// needs them: the servers of config files (package config), connected in
// parallel, their tools named for a model and calls routed to them, the
// connections supervised.
//
// # Startup
//
// Start connects every enabled, non-lazy server at once and returns after
// a short startup gate (250 ms by default) with what is ready: the live
// tools of the servers that connected, the cached tools of those still
// connecting, the errors of those that failed. Connecting goes on in the
// background. A call on a cached tool waits for its server (bounded), so
// a model can be shown every tool at once without waiting for the
// slowest server. Lazy servers connect on first use: a call to one of
// their tools, Client or Connect. Until then Tools lists a lazy server's
// tools from the tool cache only, so on a first run (or with DisableCache)
// it lists none of them and a model cannot pick one: call Connect once
// for a lazy server whose tools a model must see.
//
// # Untrusted project files
//
// Each server's config.Source says its scope: the user's own file, a
// file the caller named, or a project file. A project file the user has
// not approved (config.Set.Untrusted, or a definition marked
// Source.Untrusted) is listed with StateUntrusted and never started or
// connected; Connect and calls fail with ErrUntrusted (an
// *UntrustedError naming the file). Options.StartUntrusted, off by
// default, lets marked definitions run.
//
// # Tool cache
//
// Each server's last tool list is kept in a file of its own under the
// user cache directory (mcpwire/tools), named by a hash of the server's
// unexpanded definition and the file it came from: editing the
// definition starts a new cache, rotating a secret in the environment
// does not. Files are written atomically and readable by the owner only,
// expire after 30 days, and hold tool lists only. A corrupt file is a
// miss and a Warning event.
//
// # Tool names
//
// A model sees a server's tool as "mcp__<server>__<tool>", made to fit
// ^[a-zA-Z0-9_-]{1,64}$ (see ToolName); names that still collide get
// _2, _3, … in a deterministic order. The manager routes calls through
// its own table, never by parsing a name.
//
// # Supervision
//
// When a connection ends, the manager reconnects after 0.5, 1, 2, 4, 4 …
// seconds (with jitter), re-lists and re-caches the tools. Five failures
// in a row (attempts that failed, including attempts that hung until the
// 30 s connect timeout, and connections that ended within 30 s) open a
// breaker: automatic restarts stop, the state says breaker-open, and
// Connect tries again. A connection that stays up for 30 s ends the run.
// Reconnect (a person asking for a new connection) is no failure: the
// connection it ends is not counted and the new one starts at once.
// With the defaults a server that never answers initialize opens its
// breaker after about 2 min 38 s (five timeouts and the backoff between
// them). The state tells the first attempt (connecting) from later ones
// (retrying, or reconnecting for a server that was connected before), and
// ServerStatus gives the attempt number and the last failure. Calls made
// while a server reconnects wait for it (Options.ReconnectWait, 10 s by
// default) and then fail naming the server.
//
// tools, prompts and resources list_changed notifications refresh those
// lists, debounced: a list is fetched once no announcement of it came for
// 100 ms, and at least once a second during a storm of them, so that a
// thousand announcements cost a few listings, events and cache writes
// and the last listing follows the last announcement. An optional
// keepalive ping closes a connection that stopped answering, so it
// reconnects.
//
// # Events
//
// Subscribe delivers events (connecting, connected, failed, reconnecting,
// list changes, notifications, breaker, warnings) in order, on a
// goroutine per subscriber, so a slow subscriber never holds up the
// servers, the manager or another subscriber. Each subscriber's queue is
// bounded in count and bytes (Options.EventQueue and EventQueueBytes,
// 1024 events and 8 MiB): when it is full the oldest notification or
// warning is dropped, a Dropped event says how many, and state changes
// are never dropped. A server's connection bounds its own notification
// queue (mcp.ClientOptions.NotificationQueue); what it drops is told by a
// Dropped event carrying the server's name.
//
// # Close
//
// Close ends everything the manager started. At once, callers waiting for
// a server and calls in flight fail with ErrShutdown, and the notifications
// queued for subscribers are dropped; then the connections close, each
// server's Closed event is emitted, and subscribers get the queued state
// changes within 5 s. After Close returns no callback starts; only one
// that had not returned within those 5 s may still run, and Close's error
// says so.
//
// # Errors
//
// Every error a Manager method returns is an *Error naming the server and
// the operation. Its cause tells what happened: ErrShutdown for the
// manager's own shutdown, jsonrpc.ErrClosed (with the exit status and
// stderr tail of a child) for a connection that ended, *BreakerError
// (ErrBreakerOpen) for a server whose restarts stopped, ErrNotReady for a
// server that did not connect in time.
package manager
