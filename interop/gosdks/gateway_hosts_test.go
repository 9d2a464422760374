package gosdks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// The upstreams behind the gateway in these tests: the npm reference
// server, the example server built into mcpwire, and a go-sdk server.
const (
	upEverything = "everything"
	upExample    = "example"
	upGoSDK      = "gosdk"

	hostAnswer = "answered by the host"
	toolBlock  = "block" // waits for its cancellation, then says so in a FIFO
)

func init() {
	// The go-sdk upstream: the interop server plus a tool that reports its
	// own cancellation, so a test sees that the host's cancel went through
	// the gateway to the upstream (not only that the host stopped waiting).
	stdioServers["go-sdk-upstream"] = func() error {
		s := goSDKServer(nil)
		gosdk.AddTool(s, &gosdk.Tool{Name: toolBlock, Description: "waits until cancelled"},
			func(ctx context.Context, _ *gosdk.CallToolRequest, in struct {
				Started   string `json:"started"`
				Cancelled string `json:"cancelled"`
			}) (*gosdk.CallToolResult, any, error) {
				// Each write opens a FIFO the test reads: it blocks until
				// the test reads, and the test's read is the event.
				if err := os.WriteFile(in.Started, []byte("started"), 0); err != nil {
					return nil, nil, err
				}
				<-ctx.Done()
				if err := os.WriteFile(in.Cancelled, []byte("cancelled"), 0); err != nil {
					return nil, nil, err
				}
				return nil, nil, ctx.Err()
			})
		return s.Run(context.Background(), &gosdk.StdioTransport{})
	}
}

// upstreamsConfig writes a config with the three upstreams over stdio.
func upstreamsConfig(t *testing.T, bin string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	command, argv := interop.ServerEverything(t, "stdio")
	servers := map[string]any{
		upEverything: map[string]any{"command": command, "args": argv},
		upExample:    map[string]any{"command": bin, "args": []string{"__serve-mcptest"}},
		upGoSDK:      map[string]any{"command": exe, "args": []string{serverArg + "go-sdk-upstream"}},
	}
	raw, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// hostEvents is what a host's handlers saw; the tests wait on them.
type hostEvents struct {
	progress    chan float64
	listChanged chan struct{}
	asked       chan string // elicitation messages
}

func newHostEvents() *hostEvents {
	return &hostEvents{
		progress:    make(chan float64, 64),
		listChanged: make(chan struct{}, 64),
		asked:       make(chan string, 8),
	}
}

// Non-blocking sends: a handler never stalls its client on a full channel
// (the channels hold far more than any test produces).
func (e *hostEvents) sawProgress(p float64) {
	select {
	case e.progress <- p:
	default:
	}
}

func (e *hostEvents) sawListChanged() {
	select {
	case e.listChanged <- struct{}{}:
	default:
	}
}

// answer fills the form the way a person would: every string field gets
// hostAnswer (or the first of its choices), every boolean false, every
// number 7; the message is recorded.
func (e *hostEvents) answer(message string, schema any) (map[string]any, error) {
	select {
	case e.asked <- message:
	default:
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var form struct {
		Properties map[string]struct {
			Type string `json:"type"`
			Enum []any  `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &form); err != nil {
		return nil, fmt.Errorf("the form's schema: %w", err)
	}
	content := map[string]any{}
	for name, p := range form.Properties {
		switch {
		case len(p.Enum) > 0:
			content[name] = p.Enum[0]
		case p.Type == "string":
			content[name] = hostAnswer
		case p.Type == "boolean":
			content[name] = false
		case p.Type == "number" || p.Type == "integer":
			content[name] = 7
		}
	}
	return content, nil
}

// A host is one client library connected to the gateway, used the same
// way whatever its library.
type host interface {
	tools(ctx context.Context) ([]string, error)
	// call returns the result's text; an isError result is an error.
	call(ctx context.Context, name string, args map[string]any, withProgress bool) (string, error)
	version() string
	close()
}

// A hostKind connects one client library over one transport in one era.
type hostKind struct {
	name    string
	version string
	connect func(t *testing.T, gw gateway, version string, ev *hostEvents) host
	// keepsCall: the client stops waiting for a cancelled call but tells
	// the server nothing. mcp-go (v1.2.1) sends no notifications/cancelled
	// over HTTP before 2026-07-28, and a dropped response stream is not a
	// cancellation in those eras.
	keepsCall bool
}

// gateway is how a host reaches "mcpwire serve": a command for stdio, a
// URL for HTTP (one of the two is set).
type gateway struct {
	cmd []string // the stdio command line
	env []string
	url string
}

var hostKinds = func() []hostKind {
	var kinds []hostKind
	for _, version := range []string{"2025-11-25", modernVersion} {
		kinds = append(kinds,
			hostKind{"go-sdk/stdio", version, connectGoSDK, false},
			hostKind{"go-sdk/http", version, connectGoSDK, false},
			hostKind{"mcp-go/stdio", version, connectMcpGo, false},
			hostKind{"mcp-go/http", version, connectMcpGo, version != modernVersion},
		)
	}
	return kinds
}()

// TestHostsThroughServe connects the go-sdk and mcp-go clients, as hosts,
// to "mcpwire serve" over stdio and Streamable HTTP in both eras, with
// server-everything, the example server and a go-sdk server behind it,
// and uses what a host uses: the merged tools, a call to each upstream,
// progress, cancellation, an elicitation relayed from an upstream, and
// list_changed when an upstream's tools change.
func TestHostsThroughServe(t *testing.T) {
	bin := buildCLI(t)
	cfg := upstreamsConfig(t, bin)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	stdioGW := gateway{cmd: []string{bin, "serve", "--stdio", "--config", cfg}, env: env}
	httpGW := gateway{url: listenServe(t, bin, env, "--config", cfg)}
	for i, kind := range hostKinds {
		t.Run(kind.name+"/"+kind.version, func(t *testing.T) {
			gw := stdioGW
			if strings.HasSuffix(kind.name, "/http") {
				gw = httpGW
			}
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			ev := newHostEvents()
			h := kind.connect(t, gw, kind.version, ev)
			defer h.close()
			if h.version() != kind.version {
				t.Fatalf("the host negotiated %q, not %s", h.version(), kind.version)
			}
			hostThroughServe(ctx, t, h, ev, kind.keepsCall, fmt.Sprintf("added%d", i))
		})
	}
}

func hostThroughServe(ctx context.Context, t *testing.T, h host, ev *hostEvents, keepsCall bool, added string) {
	names, err := h.tools(ctx)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, want := range []string{"everything__get-sum", "example__echo", "gosdk__" + toolEcho, "gosdk__" + toolBlock} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list has no %s: %v", want, names)
		}
	}

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"everything__get-sum", map[string]any{"a": 1, "b": 41}, "42"},
		{"example__echo", map[string]any{"message": "hi"}, "hi"},
		{"gosdk__" + toolEcho, map[string]any{"text": "hi"}, "echo: hi"},
	} {
		if got, err := h.call(ctx, c.tool, c.args, false); err != nil || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.tool, got, err, c.want)
		}
	}

	// Progress from server-everything's long-running operation.
	if _, err := h.call(ctx, "everything__trigger-long-running-operation", map[string]any{"duration": 0.2, "steps": 2}, true); err != nil {
		t.Errorf("long-running operation: %v", err)
	}
	for range 2 {
		select {
		case <-ev.progress:
		case <-ctx.Done():
			t.Fatal("no progress reached the host")
		}
	}

	// An elicitation from each upstream that asks one: the example
	// server's request, and the go-sdk server's (MRTR, which the go-sdk
	// turns into a request for an older-era client).
	for _, c := range []struct {
		tool, message string
		args          map[string]any
		want          string
	}{
		{"example__elicit", "who are you?", map[string]any{"message": "who are you?"}, hostAnswer},
		{"gosdk__" + toolConfirm, confirmMessage, nil, "accept ok=false"},
	} {
		got, err := h.call(ctx, c.tool, c.args, false)
		if err != nil || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, %v; want the host's answer %q", c.tool, got, err, c.want)
			continue
		}
		select {
		case msg := <-ev.asked:
			if msg != c.message {
				t.Errorf("%s: the host was asked %q, not %q", c.tool, msg, c.message)
			}
		default:
			t.Errorf("%s: the host's elicitation handler was never called", c.tool)
		}
	}

	// Cancellation: once the go-sdk upstream's tool runs, the host cancels
	// the call, and the tool sees its context cancelled.
	started := fifo(ctx, t, "started")
	var cancelled *fifoReader
	// Nobody waits for the upstream's word when the host keeps the call:
	// the upstream writes it when its call ends, which may be while this
	// subtest's temporary directories are being removed (CI once saw
	// "directory not empty" there), so it goes where no cleanup looks.
	cancelledPath := os.DevNull
	if !keepsCall {
		cancelled = fifo(ctx, t, "cancelled")
		cancelledPath = cancelled.path
	}
	callCtx, cancelCall := context.WithCancel(ctx)
	ended := make(chan error, 1)
	go func() {
		_, err := h.call(callCtx, "gosdk__"+toolBlock, map[string]any{"started": started.path, "cancelled": cancelledPath}, false)
		ended <- err
	}()
	if got := started.read(); got != "started" {
		cancelCall()
		t.Fatalf("the upstream's tool never started: %q", got)
	}
	cancelCall()
	if err := <-ended; err == nil {
		t.Error("the cancelled call succeeded")
	}
	if cancelled == nil {
		// The upstream's call ends when the gateway does (the cleanup).
	} else if got := cancelled.read(); got != "cancelled" {
		t.Fatalf("the upstream never saw the cancellation: %q", got)
	}

	// list_changed: the example server registers a tool; the host is told
	// and its next tools/list shows it.
	if _, err := h.call(ctx, "example__add-tool", map[string]any{"name": added}, false); err != nil {
		t.Fatalf("add-tool: %v", err)
	}
	select {
	case <-ev.listChanged:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed reached the host")
	}
	names, err = h.tools(ctx)
	if err != nil || !slices.Contains(names, "example__"+added) {
		t.Fatalf("tools/list after list_changed: %v, %v", names, err)
	}
}

// A fifoReader is a named pipe the test reads once, ending by ctx.
type fifoReader struct {
	path string
	ctx  context.Context
	got  chan string
}

// fifo makes a named pipe and starts reading it.
func fifo(ctx context.Context, t *testing.T, name string) *fifoReader {
	t.Helper()
	f := &fifoReader{path: filepath.Join(t.TempDir(), name), ctx: ctx, got: make(chan string, 1)}
	if err := syscall.Mkfifo(f.path, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		b, err := os.ReadFile(f.path) // returns once a writer wrote and closed it
		if err != nil {
			b = []byte(err.Error())
		}
		f.got <- string(b)
	}()
	return f
}

// read waits for what was written, or for ctx to end; then it opens the
// pipe itself so the reader's goroutine ends too.
func (f *fifoReader) read() string {
	select {
	case s := <-f.got:
		return s
	case <-f.ctx.Done():
		if w, err := os.OpenFile(f.path, os.O_WRONLY, 0); err == nil {
			_ = w.Close()
		}
		return "(nothing before " + f.ctx.Err().Error() + ")"
	}
}
