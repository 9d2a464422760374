package gosdks_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

const modernVersion = "2026-07-28"

// A target is one server built with another SDK, as mcpwire reaches it.
type target struct {
	name string
	dial func(t *testing.T) transport.Transport
	// eras the server speaks: "both", "modern" or "legacy".
	eras string
	// stateless servers cannot send the older eras' server-to-client
	// requests: there is no session to send them on.
	stateless bool
	// lossyProgress: mcp-go's Streamable HTTP server (v1.2.1) hands a
	// call's notifications to a forwarder goroutine while its drain writes
	// the rest before the result; the two reorder them, and the one the
	// forwarder holds when the result goes out is dropped. At most one of
	// a call's notifications is lost, in any order.
	lossyProgress bool
}

var targets = []target{
	{name: "go-sdk/stdio", dial: stdio("go-sdk"), eras: "both"},
	// The go-sdk serves 2026-07-28 over HTTP only when stateless: its
	// stateful handler leaves the version out of server/discover.
	{name: "go-sdk/http", dial: goSDKHTTP(nil, false), eras: "legacy"},
	{name: "go-sdk/http-stateless", dial: goSDKHTTP(nil, true), eras: "both", stateless: true},
	{name: "go-sdk-modern-only/stdio", dial: stdio("go-sdk-modern"), eras: "modern"},
	{name: "go-sdk-modern-only/http-stateless", dial: goSDKHTTP(modernOnly, true), eras: "modern", stateless: true},
	{name: "go-sdk-legacy-only/stdio", dial: stdio("go-sdk-legacy"), eras: "legacy"},
	{name: "mcp-go/stdio", dial: stdio("mcp-go"), eras: "both"},
	{name: "mcp-go/http", dial: mcpGoHTTP(nil, false), eras: "both", lossyProgress: true},
	{name: "mcp-go/http-stateless", dial: mcpGoHTTP(nil, true), eras: "both", stateless: true, lossyProgress: true},
	{name: "mcp-go-modern-only/http-stateless", dial: mcpGoHTTP(modernOnly, true), eras: "modern", stateless: true, lossyProgress: true},
}

// pins are the client's ways to choose the era: default options (automatic
// negotiation, once it is the default), and each era pinned.
var pins = []struct{ name, version string }{
	{"default", ""},
	{"legacy-2025-11-25", "2025-11-25"},
	{"modern-2026-07-28", modernVersion},
}

// TestOtherSDKServers connects mcpwire's library to every target with
// default options and pinned to each era the target speaks, and uses every
// feature the targets offer: tools, resources, prompts, progress, and an
// elicitation asked for through MRTR (modern era) or through a
// server-to-client request (legacy era).
func TestOtherSDKServers(t *testing.T) {
	for _, tg := range targets {
		for _, pin := range pins {
			if tg.eras == "modern" && pin.version != "" && pin.version != modernVersion ||
				tg.eras == "legacy" && pin.version == modernVersion {
				continue // pinned to an era the server does not speak
			}
			t.Run(tg.name+"/"+pin.name, func(t *testing.T) {
				t.Parallel()
				exercise(t, tg, pin.version)
			})
		}
	}
}

func exercise(t *testing.T, tg target, pin string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var elicited elicitations
	// Progress is watched client-wide, not per call: mcp-go's stdio server
	// writes notifications from a goroutine of their own, so they may come
	// after the call's result, which ends what a call's OnProgress sees.
	progress := make(chan mcp.ProgressNotification, 16)
	c, err := mcp.Connect(ctx, tg.dial(t), &mcp.ClientOptions{
		ProtocolVersion: pin,
		Elicitation:     elicited.answer,
		OnProgress: func(_ context.Context, p mcp.ProgressNotification) {
			select {
			case progress <- p:
			default: // far more than the three the count tool sends: never blocks the client
			}
		},
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })

	got := c.ProtocolVersion()
	modern := got >= modernVersion
	switch {
	case pin != "" && got != pin:
		t.Fatalf("pinned %s, negotiated %s", pin, got)
	case pin == "" && tg.eras == "modern" && !modern:
		t.Fatalf("default options negotiated %s with a server that speaks only %s (automatic era negotiation should have found it)", got, modernVersion)
	case pin == "" && tg.eras == "legacy" && modern:
		t.Fatalf("default options negotiated %s with a server that speaks only the legacy era", got)
	}
	t.Logf("negotiated %s (server versions %v)", got, c.ServerVersions())

	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{toolEcho, toolCount, toolConfirm, toolAsk} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list: no %q in %q", want, names)
		}
	}

	res, err := c.CallTool(ctx, toolEcho, map[string]any{"text": "hi"}, nil)
	wantText(t, "tools/call "+toolEcho, res, err, "echo: hi")

	rr, err := c.ReadResource(ctx, greetingURI)
	if err != nil {
		t.Errorf("resources/read: %v", err)
	} else if len(rr.Contents) != 1 || rr.Contents[0].Text == nil || !strings.HasPrefix(*rr.Contents[0].Text, "hello from ") {
		t.Errorf("resources/read: contents %+v, want one text starting %q", rr.Contents, "hello from ")
	}

	pr, err := c.GetPrompt(ctx, promptGreet, map[string]string{"name": "Ada"})
	if err != nil {
		t.Errorf("prompts/get: %v", err)
	} else if len(pr.Messages) != 1 || pr.Messages[0].Content.Text != "Hello, Ada!" {
		t.Errorf("prompts/get: messages %+v, want one saying %q", pr.Messages, "Hello, Ada!")
	}

	res, err = c.CallTool(ctx, toolCount, nil, nil)
	wantText(t, "tools/call "+toolCount, res, err, "counted 3")
	if err == nil {
		wantProgress(ctx, t, tg, progress)
	}

	// The elicitation: through MRTR in the modern era, through the SDK's
	// own elicitation/create in the legacy one. A stateless server of the
	// legacy era has no way to ask, so there is nothing to test.
	if !modern && tg.stateless {
		return
	}
	res, err = c.CallTool(ctx, toolConfirm, nil, nil)
	wantText(t, "tools/call "+toolConfirm, res, err, "accept ok=true")
	elicited.want(t, toolConfirm, 1)

	if !modern {
		res, err = c.CallTool(ctx, toolAsk, nil, nil)
		wantText(t, "tools/call "+toolAsk, res, err, "accept ok=true")
		elicited.want(t, toolAsk, 2)
	}
}

// wantProgress checks the notifications of the count tool: steps 1, 2
// and 3 in order, or from a lossy server at least two distinct ones.
func wantProgress(ctx context.Context, t *testing.T, tg target, progress <-chan mcp.ProgressNotification) {
	t.Helper()
	want := progressSteps
	if tg.lossyProgress {
		want = progressSteps - 1
	}
	var steps []float64
	for len(steps) < want {
		select {
		case p := <-progress:
			steps = append(steps, p.Progress)
		case <-ctx.Done():
			t.Errorf("tools/call %s: progress %v, then nothing until the test's deadline; want [1 2 3]", toolCount, steps)
			return
		}
	}
	if !tg.lossyProgress {
		if !slices.Equal(steps, []float64{1, 2, 3}) {
			t.Errorf("tools/call %s: progress %v, want [1 2 3]", toolCount, steps)
		}
		return
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(steps)))
	if len(distinct) != len(steps) || distinct[0] < 1 || distinct[len(distinct)-1] > progressSteps {
		t.Errorf("tools/call %s: progress %v, want two or three distinct steps of 1, 2, 3", toolCount, steps)
	}
}

// elicitations answers every form with ok=true and counts what it saw.
type elicitations struct {
	mu   sync.Mutex
	seen []mcp.ElicitRequest
}

func (e *elicitations) answer(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	e.seen = append(e.seen, *req)
	e.mu.Unlock()
	return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: map[string]any{"ok": true}}, nil
}

// want checks that the handler has answered n elicitations so far, the
// last one the servers' confirmation form.
func (e *elicitations) want(t *testing.T, tool string, n int) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.seen) != n {
		t.Errorf("tools/call %s: the elicitation handler ran %d times in all, want %d", tool, len(e.seen), n)
		return
	}
	last := e.seen[n-1]
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if last.Message != confirmMessage || json.Unmarshal(last.RequestedSchema, &schema) != nil || schema.Properties["ok"] == nil {
		t.Errorf("tools/call %s: elicitation %q with schema %s, want %q asking for ok", tool, last.Message, last.RequestedSchema, confirmMessage)
	}
}

func wantText(t *testing.T, what string, res *mcp.CallToolResult, err error, want string) {
	t.Helper()
	switch {
	case err != nil:
		t.Errorf("%s: %v", what, err)
	case res.IsError || len(res.Content) != 1 || res.Content[0].Text != want:
		t.Errorf("%s: result %+v, want one text %q", what, res, want)
	}
}
