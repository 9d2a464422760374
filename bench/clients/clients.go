// Package clients drives the MCP clients under comparison, and two floors,
// through one small interface, so that every workload runs the same code
// for each of them.
//
// Every client is used the way its own documentation and examples show:
// a command transport (stdio) or a Streamable HTTP transport with default
// options, the library's own initialize handshake, its typed tools/call
// and tools/list methods, and its own result types. Nothing is tuned for
// the benchmark.
package clients

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/bench/canned"
)

// Target says where the server is: a command to spawn (stdio) or an
// endpoint URL (Streamable HTTP). Exactly one of Command and URL is set.
type Target struct {
	Command string
	Args    []string
	URL     string
	// Modern says the server speaks only the stateless 2026-07-28
	// revision; a client that must be told to speak it is told so.
	Modern bool
	// LegacySSE says URL is an endpoint of the 2024-11-05 HTTP+SSE
	// transport (a gateway that serves only that); only mcpwire's client
	// reaches it, as the host of the gateway workload.
	LegacySSE bool
	// PinLegacy pins mcpwire's client to the newest legacy revision
	// (initialize, no server/discover probe first): the host of the
	// gateway workload, where a bridge that takes the probe for the
	// session's start would fail the initialize after it.
	PinLegacy bool
	// ToolPrefix is put before every tool name: a gateway that lists its
	// servers' tools as PREFIX + name.
	ToolPrefix string
}

// IsHTTP reports whether the target is an HTTP endpoint.
func (t Target) IsHTTP() bool { return t.URL != "" }

// Session is one connected client.
type Session interface {
	// Echo calls the echo tool once and checks its text.
	Echo(ctx context.Context) error
	// Big calls the big tool for a text of size bytes and returns the
	// length of the text received.
	Big(ctx context.Context, size int) (int, error)
	// List lists the tools and returns how many there are.
	List(ctx context.Context) (int, error)
	// Close ends the session (and its server process, for stdio).
	Close() error
}

// Pipeliner is implemented by the floors: they keep depth requests in
// flight on one connection without any client machinery, which is the
// ceiling the concurrent workload can reach.
type Pipeliner interface {
	Pipeline(ctx context.Context, total, depth int) error
}

// Client is one implementation under test.
type Client struct {
	// Name as shown in the tables.
	Name string
	// Floor marks the reference floors (no MCP client at all).
	Floor bool
	// VariantOf names the client this is another way of using (shown
	// for information, never compared against).
	VariantOf string
	// HTTP says whether the client can reach an HTTP target.
	HTTP bool
	// Modern says whether the client speaks the stateless 2026-07-28
	// revision (Target.Modern).
	Modern bool
	// Usage says how the client is used, for BENCHMARKS.md.
	Usage string
	// Connect spawns or reaches the server, performs the handshake and
	// returns a ready session.
	Connect func(ctx context.Context, t Target) (Session, error)
	// ConnectMany, when set, is how the client connects n servers and
	// lists their tools at once (mcpwire: its manager package); the
	// connect workload uses it instead of n goroutines calling Connect.
	// It returns once every server is connected and listed.
	ConnectMany func(ctx context.Context, t Target, n int) (io.Closer, error)
	// ConnectNoted, when set, connects with a handler that the client
	// calls for every notifications/message and tools/list_changed, the
	// way the library offers (for the flood and storm workloads).
	ConnectNoted func(ctx context.Context, t Target, onNote func(method string)) (NotedSession, error)
	// ConnectLarge, when set, is how the survive workload connects: with
	// the client's limit on one reply raised as far as it goes, for a
	// client whose default limit is deliberately small (mcpwire's 32 MiB
	// HTTP body limit guards against hostile servers). Usage says so.
	ConnectLarge func(ctx context.Context, t Target) (Session, error)
}

// NotedSession is a session made by ConnectNoted.
type NotedSession interface {
	// CallText calls a tool and returns the text of its one block.
	CallText(ctx context.Context, name string, args map[string]any) (string, error)
	// Dropped counts the notifications the client dropped and said so
	// (mcpwire's manager); clients that never drop return 0.
	Dropped() int
	Close() error
}

// All returns the three clients and the two floors, clients first.
func All() []*Client {
	return []*Client{MCPWire(), GoSDK(), MCPGo(), Raw(), Cat()}
}

// EchoArgs are the echo tool's arguments, the same for every client.
var EchoArgs = map[string]any{"message": canned.EchoText}

func checkEcho(text string) error {
	if text != canned.EchoText {
		return fmt.Errorf("echo answered %q, want %q", clip(text), canned.EchoText)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
