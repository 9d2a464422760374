package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// These tests run the client against mcptest, a server written
// independently of this package's types and of the jsonrpc engine.

// connectMCPTest starts a session of srv and runs the handshake. Options
// without a protocol pin are pinned to the legacy era, which these tests
// exercise (mcptest speaks both, and auto negotiation would choose the
// modern one); negotiate_test.go tests the negotiation.
func connectMCPTest(t *testing.T, srv *mcptest.Server, opts *ClientOptions) (*Client, *mcptest.Session) {
	t.Helper()
	opts = legacyUnlessPinned(opts)
	stream, session := mcptest.Connect(t, srv)
	c, err := NewClient(t.Context(), stream, opts)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, session
}

func TestMCPTestSession(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{PageSize: 3, Instructions: "test well"})
	c, session := connectMCPTest(t, srv, &ClientOptions{ClientInfo: Implementation{Name: "tester", Version: "2"}})
	ctx := t.Context()
	<-session.Initialized()
	if session.ClientInfo().Name != "tester" || session.ProtocolVersion() != LatestLegacyProtocolVersion {
		t.Errorf("server saw %+v %s", session.ClientInfo(), session.ProtocolVersion())
	}
	if c.ServerInfo().Name != "mcptest" || c.Instructions() != "test well" {
		t.Errorf("ServerInfo %+v, Instructions %q", c.ServerInfo(), c.Instructions())
	}
	caps := c.ServerCapabilities()
	if caps.Tools == nil || caps.Logging == nil || caps.Resources == nil || caps.Prompts == nil || caps.Completions == nil {
		t.Errorf("capabilities = %+v", caps)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}

	tools, err := c.ListTools(ctx) // 12 tools in pages of 3
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"echo", "add", "slow", "fail", "bad-output", "large", "sample", "elicit", "roots", "log", "touch", "add-tool"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %q missing from %q", want, names)
		}
	}

	res, err := c.CallTool(ctx, "echo", map[string]string{"message": "hi"}, nil)
	if err != nil || res.Content[0].Text != "hi" {
		t.Errorf("echo = %+v, %v", res, err)
	}
	res, err = c.CallTool(ctx, "add", map[string]float64{"a": 2, "b": 40}, nil)
	if err != nil || string(res.StructuredContent) != `{"sum":42}` {
		t.Errorf("add = %+v, %v", res, err)
	}
	res, err = c.CallTool(ctx, "bad-output", nil, nil)
	var oErr *OutputSchemaError
	if !errors.As(err, &oErr) || oErr.Tool != "bad-output" || res == nil || !strings.Contains(err.Error(), "at '/sum'") {
		t.Errorf("bad-output = %+v, %v", res, err)
	}
	res, err = c.CallTool(ctx, "fail", nil, nil)
	if err != nil || !res.IsError {
		t.Errorf("fail = %+v, %v", res, err)
	}
	_, err = c.CallTool(ctx, "no-such-tool", nil, nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		t.Errorf("unknown tool error = %v", err)
	}
	res, err = c.CallTool(ctx, "large", map[string]int{"bytes": 1 << 20}, nil)
	if err != nil || len(res.Content[0].Text) != 1<<20 {
		t.Errorf("large: %v", err)
	}
}

func TestMCPTestProgress(t *testing.T) {
	c, _ := connectMCPTest(t, mcptest.NewDefault(nil), nil)
	var mu sync.Mutex
	var steps []float64
	res, err := c.CallTool(t.Context(), "slow", map[string]int{"steps": 4, "delay_ms": 0}, &CallOptions{
		OnProgress: func(_ context.Context, p ProgressNotification) {
			mu.Lock()
			defer mu.Unlock()
			steps = append(steps, p.Progress)
		},
	})
	if err != nil || res.Content[0].Text != "done after 4 steps" {
		t.Fatalf("slow = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(steps, []float64{1, 2, 3, 4}) {
		t.Errorf("progress = %v", steps)
	}
}

func TestMCPTestResourcesPromptsCompletion(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{PageSize: 1})
	c, _ := connectMCPTest(t, srv, nil)
	ctx := t.Context()
	resources, err := c.ListResources(ctx)
	if err != nil || len(resources) != 2 {
		t.Fatalf("ListResources = %+v, %v", resources, err)
	}
	templates, err := c.ListResourceTemplates(ctx)
	if err != nil || len(templates) != 1 || templates[0].URITemplate != mcptest.ItemURITemplate {
		t.Fatalf("ListResourceTemplates = %+v, %v", templates, err)
	}
	hello, err := c.ReadResource(ctx, mcptest.HelloURI)
	if err != nil || !hello.Contents[0].IsText() || *hello.Contents[0].Text != mcptest.HelloText {
		t.Errorf("read hello = %+v, %v", hello, err)
	}
	blob, err := c.ReadResource(ctx, mcptest.BlobURI)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := blob.Contents[0].DecodeBlob(); err != nil || !slices.Equal(b, mcptest.BlobBytes) {
		t.Errorf("blob = %v, %v", b, err)
	}
	item, err := c.ReadResource(ctx, "mcptest://item/7")
	if err != nil || *item.Contents[0].Text != "item 7" {
		t.Errorf("item = %+v, %v", item, err)
	}
	if _, err := c.ReadResource(ctx, "mcptest://nothing"); !errors.As(err, new(*jsonrpc.Error)) {
		t.Errorf("missing resource error = %v", err)
	}

	updated := make(chan string, 1)
	c.OnNotification(NotificationResourceUpdated, func(_ context.Context, n *jsonrpc.Notification) {
		var u ResourceUpdated
		json.Unmarshal(n.Params, &u)
		updated <- u.URI
	})
	if err := c.SubscribeResource(ctx, mcptest.HelloURI); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "touch", map[string]string{"uri": mcptest.HelloURI}, nil); err != nil {
		t.Fatal(err)
	}
	if uri := <-updated; uri != mcptest.HelloURI {
		t.Errorf("updated %q", uri)
	}
	if err := c.UnsubscribeResource(ctx, mcptest.HelloURI); err != nil {
		t.Fatal(err)
	}

	prompts, err := c.ListPrompts(ctx)
	if err != nil || len(prompts) != 2 {
		t.Fatalf("ListPrompts = %+v, %v", prompts, err)
	}
	got, err := c.GetPrompt(ctx, "summarize", map[string]string{"topic": "Go"})
	if err != nil || len(got.Messages) == 0 || !strings.Contains(got.Messages[0].Content.Text, "Go") {
		t.Errorf("GetPrompt = %+v, %v", got, err)
	}
	if _, err := c.GetPrompt(ctx, "summarize", nil); !errors.As(err, new(*jsonrpc.Error)) {
		t.Errorf("GetPrompt without its required argument: %v", err)
	}
	comp, err := c.Complete(ctx, PromptRef("summarize"), CompletionArgument{Name: "style", Value: "b"}, nil)
	if err != nil || len(comp.Values) == 0 {
		t.Errorf("Complete = %+v, %v", comp, err)
	}
	for _, v := range comp.Values {
		if !strings.HasPrefix(v, "b") {
			t.Errorf("completion %q does not start with b", v)
		}
	}
}

func TestMCPTestClientFeatures(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	logs := make(chan LoggingMessage, 4)
	c, session := connectMCPTest(t, srv, &ClientOptions{
		InitialRoots: []Root{{URI: "file:///src", Name: "src"}},
		Sampling: func(_ context.Context, req *CreateMessageRequest) (*CreateMessageResult, error) {
			return &CreateMessageResult{Content: SamplingContent{TextContent("echo: " + req.Messages[0].Content[0].Text)}, Model: "m"}, nil
		},
		Elicitation: func(_ context.Context, req *ElicitRequest) (*ElicitResult, error) {
			d, err := ElicitationDefaults(req.RequestedSchema)
			return &ElicitResult{Action: ElicitAccept, Content: d}, err
		},
		OnLogMessage: func(_ context.Context, m LoggingMessage) { logs <- m },
	})
	ctx := t.Context()
	assertSameJSON(t, session.ClientCapabilities(), []byte(`{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{}}}`))

	res, err := c.CallTool(ctx, "sample", map[string]string{"prompt": "ping"}, nil)
	if err != nil || res.IsError || res.Content[0].Text != "echo: ping" {
		t.Errorf("sample = %+v, %v", res, err)
	}
	res, err = c.CallTool(ctx, "elicit", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("elicit = %+v, %v", res, err)
	}
	assertSameJSON(t, res.StructuredContent, []byte(`{"action":"accept","content":{"name":"mcptest","count":3,"ratio":0.5,"color":"green","ok":true}}`))
	res, err = c.CallTool(ctx, "roots", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("roots = %+v, %v", res, err)
	}
	assertSameJSON(t, []byte(res.Content[0].Text), []byte(`{"roots":[{"uri":"file:///src","name":"src"}]}`))
	if err := c.SetRoots(ctx, []Root{{URI: "file:///other"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := session.WaitReceived(ctx, NotificationRootsListChanged); err != nil {
		t.Fatal(err)
	}

	if _, err := c.CallTool(ctx, "log", map[string]string{"level": "warning", "message": "careful"}, nil); err != nil {
		t.Fatal(err)
	}
	m := <-logs
	if m.Level != LevelWarning || string(m.Data) != `"careful"` || m.Logger != "mcptest" {
		t.Errorf("log = %+v", m)
	}
	if err := c.SetLogLevel(ctx, LevelError); err != nil {
		t.Fatal(err)
	}
	res, err = c.CallTool(ctx, "log", map[string]string{"level": "warning", "message": "quiet"}, nil)
	if err != nil || res.Content[0].Text != "filtered by the client's log level" {
		t.Errorf("filtered log = %+v, %v", res, err)
	}
	if err := session.Ping(ctx); err != nil {
		t.Errorf("server ping: %v", err)
	}
}

func TestMCPTestUndeclaredFeatures(t *testing.T) {
	c, _ := connectMCPTest(t, mcptest.NewDefault(nil), nil)
	for _, tool := range []string{"sample", "elicit", "roots"} {
		res, err := c.CallTool(t.Context(), tool, map[string]string{"prompt": "x"}, nil)
		if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, "-32601") {
			t.Errorf("%s without the capability = %+v, %v", tool, res, err)
		}
	}
}

func TestMCPTestListChanged(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	c, _ := connectMCPTest(t, srv, nil)
	ctx := t.Context()
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 4)
	c.OnNotification(NotificationToolsListChanged, func(context.Context, *jsonrpc.Notification) { changed <- struct{}{} })
	if _, err := c.CallTool(ctx, "add-tool", map[string]string{"name": "echo2"}, nil); err != nil {
		t.Fatal(err)
	}
	<-changed
	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tools, func(t Tool) bool { return t.Name == "echo2" }) {
		t.Error("echo2 not listed after list_changed")
	}
}

func TestMCPTestVersionNegotiation(t *testing.T) {
	for _, v := range ProtocolVersions() {
		t.Run("server speaks "+v, func(t *testing.T) {
			c, _ := connectMCPTest(t, mcptest.NewDefault(&mcptest.Options{SupportedVersions: []string{v}}), nil)
			if c.ProtocolVersion() != v {
				t.Errorf("negotiated %q, want %q", c.ProtocolVersion(), v)
			}
		})
	}
	t.Run("counter-proposal refused", func(t *testing.T) {
		stream, _ := mcptest.Connect(t, mcptest.NewDefault(&mcptest.Options{ProtocolVersion: "2099-12-31"}))
		_, err := NewClient(t.Context(), stream, legacyUnlessPinned(nil))
		var vErr *ProtocolVersionError
		if !errors.As(err, &vErr) || vErr.Server != "2099-12-31" {
			t.Errorf("NewClient = %v", err)
		}
	})
	t.Run("rejected with the supported list", func(t *testing.T) {
		stream, _ := mcptest.Connect(t, mcptest.NewDefault(&mcptest.Options{
			SupportedVersions: []string{"2024-01-01"}, RejectUnsupportedVersion: true}))
		_, err := NewClient(t.Context(), stream, legacyUnlessPinned(nil))
		var vErr *ProtocolVersionError
		if !errors.As(err, &vErr) || !slices.Equal(vErr.Supported, []string{"2024-01-01"}) || !strings.Contains(err.Error(), `"2024-01-01"`) {
			t.Errorf("NewClient = %v", err)
		}
	})
}

func TestMCPTestFaults(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Faults: []mcptest.Fault{
		{Kind: mcptest.FaultMalformedLine, Target: "echo"},
		{Kind: mcptest.FaultUnknownID, Target: "echo"},
		{Kind: mcptest.FaultDuplicateResponse, Target: MethodPing},
	}})
	var h hookRecorder
	c, _ := connectMCPTest(t, srv, &ClientOptions{ErrorHook: h.hook})
	ctx := t.Context()
	// Garbage and stray responses are reported, and the calls still succeed.
	if res, err := c.CallTool(ctx, "echo", map[string]string{"message": "still here"}, nil); err != nil || res.Content[0].Text != "still here" {
		t.Fatalf("echo through faults = %+v, %v", res, err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if len(h.all()) < 2 {
		t.Errorf("hook got %v, want the malformed line and the unknown id at least", h.all())
	}

	// A crash ends the session; pending calls fail with ErrClosed.
	srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "echo"})
	_, err := c.CallTool(ctx, "echo", map[string]string{"message": "x"}, nil)
	if !errors.Is(err, jsonrpc.ErrClosed) || !strings.HasPrefix(err.Error(), "mcp: tools/call (id ") {
		t.Errorf("call into a crash = %v", err)
	}
	<-c.Done()
}

func TestMCPTestConnectTransport(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	c, err := Connect(t.Context(), srv.Transport(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// legacyUnlessPinned returns opts pinned to LatestLegacyProtocolVersion unless
// they pin a version already.
func legacyUnlessPinned(opts *ClientOptions) *ClientOptions {
	var o ClientOptions
	if opts != nil {
		o = *opts
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = LatestLegacyProtocolVersion
	}
	return &o
}
