package gosdks_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// listenServe starts "mcpwire serve --listen" on loopback for the test
// and returns its endpoint's URL; the gateway is stopped at cleanup and
// must exit cleanly.
func listenServe(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--no-auth"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("gateway exit: %v", err)
		}
	})
	var url string
	lines := bufio.NewScanner(stderr)
	for url == "" && lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "mcpwire: serving at "); ok {
			url = u // other lines (a warning about session keys) come before it
		}
	}
	if url == "" {
		t.Fatal("the gateway ended without saying where it serves")
	}
	go func() { // the rest of stderr, so the gateway never blocks writing it
		for lines.Scan() {
		}
	}()
	return url
}

// --- the go-sdk's client as a host ---

type goSDKHost struct{ s *gosdk.ClientSession }

func connectGoSDK(t *testing.T, gw gateway, version string, ev *hostEvents) host {
	t.Helper()
	c := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-host", Version: "1"}, &gosdk.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *gosdk.ElicitRequest) (*gosdk.ElicitResult, error) {
			content, err := ev.answer(req.Params.Message, req.Params.RequestedSchema)
			if err != nil {
				return nil, err
			}
			return &gosdk.ElicitResult{Action: "accept", Content: content}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *gosdk.ProgressNotificationClientRequest) {
			ev.sawProgress(req.Params.Progress)
		},
		ToolListChangedHandler: func(context.Context, *gosdk.ToolListChangedRequest) { ev.sawListChanged() },
	})
	var tr gosdk.Transport
	if gw.url != "" {
		tr = &gosdk.StreamableClientTransport{Endpoint: gw.url}
	} else {
		cmd := exec.Command(gw.cmd[0], gw.cmd[1:]...)
		cmd.Env = append(os.Environ(), gw.env...)
		tr = &gosdk.CommandTransport{Command: cmd}
	}
	s, err := c.Connect(t.Context(), tr, &gosdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("go-sdk host: connect: %v", err)
	}
	return &goSDKHost{s}
}

func (h *goSDKHost) version() string { return h.s.InitializeResult().ProtocolVersion }
func (h *goSDKHost) close()          { _ = h.s.Close() }

func (h *goSDKHost) tools(ctx context.Context) ([]string, error) {
	var names []string
	for tool, err := range h.s.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		names = append(names, tool.Name)
	}
	return names, nil
}

func (h *goSDKHost) call(ctx context.Context, name string, args map[string]any, withProgress bool) (string, error) {
	params := &gosdk.CallToolParams{Name: name, Arguments: args}
	if withProgress {
		params.SetProgressToken("progress-" + name)
	}
	res, err := h.s.CallTool(ctx, params)
	if err != nil {
		return "", err
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*gosdk.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return resultText(strings.Join(text, "\n"), res.IsError)
}

// --- mcp-go's client as a host ---

type mcpGoHost struct {
	c       *mcpgoclient.Client
	negoted string
	stop    context.CancelFunc
}

type mcpGoElicitation struct{ ev *hostEvents }

func (e mcpGoElicitation) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	content, err := e.ev.answer(req.Params.Message, req.Params.RequestedSchema)
	if err != nil {
		return nil, err
	}
	return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{
		Action: mcpgo.ElicitationResponseActionAccept, Content: content,
	}}, nil
}

func connectMcpGo(t *testing.T, gw gateway, version string, ev *hostEvents) host {
	t.Helper()
	var tr mcpgotransport.Interface
	if gw.url != "" {
		var opts []mcpgotransport.StreamableHTTPCOption
		if version != modernVersion {
			// Before 2026-07-28 notifications outside a call come on the
			// standalone GET stream, which mcp-go opens only when asked.
			opts = append(opts, mcpgotransport.WithContinuousListening())
		}
		var err error
		if tr, err = mcpgotransport.NewStreamableHTTP(gw.url, opts...); err != nil {
			t.Fatal(err)
		}
	} else {
		tr = mcpgotransport.NewStdio(gw.cmd[0], gw.env, gw.cmd[1:]...)
	}
	c := mcpgoclient.NewClient(tr,
		mcpgoclient.WithProtocolVersion(version),
		mcpgoclient.WithElicitationHandler(mcpGoElicitation{ev}))
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		switch n.Method {
		case "notifications/progress":
			if p, ok := n.Params.AdditionalFields["progress"].(float64); ok {
				ev.sawProgress(p)
			}
		case "notifications/tools/list_changed":
			ev.sawListChanged()
		}
	})
	if err := c.Start(t.Context()); err != nil {
		t.Fatalf("mcp-go host: start: %v", err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcpgo.Implementation{Name: "mcp-go-host", Version: "1"}
	res, err := c.Initialize(t.Context(), init)
	if err != nil {
		_ = c.Close()
		t.Fatalf("mcp-go host: initialize: %v", err)
	}
	h := &mcpGoHost{c: c, negoted: res.ProtocolVersion, stop: func() {}}
	if mcpgo.IsModernProtocol(res.ProtocolVersion) {
		// 2026-07-28: notifications come only on a subscriptions/listen
		// stream the client opens.
		ctx, stop := context.WithCancel(context.Background())
		listening := make(chan struct{})
		go func() {
			defer close(listening)
			_ = c.Listen(ctx, mcpgo.SubscriptionFilter{ToolsListChanged: true})
		}()
		h.stop = func() { stop(); <-listening }
	}
	return h
}

func (h *mcpGoHost) version() string { return h.negoted }
func (h *mcpGoHost) close()          { h.stop(); _ = h.c.Close() }

func (h *mcpGoHost) tools(ctx context.Context) ([]string, error) {
	var names []string
	req := mcpgo.ListToolsRequest{}
	for {
		list, err := h.c.ListTools(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
		}
		if list.NextCursor == "" {
			return names, nil
		}
		req.Params.Cursor = list.NextCursor
	}
}

func (h *mcpGoHost) call(ctx context.Context, name string, args map[string]any, withProgress bool) (string, error) {
	var req mcpgo.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	if withProgress {
		req.Params.Meta = &mcpgo.Meta{ProgressToken: "progress-" + name}
	}
	res, err := h.c.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return resultText(strings.Join(text, "\n"), res.IsError)
}

// resultText makes an isError result an error carrying its text.
func resultText(text string, isError bool) (string, error) {
	if isError {
		return text, errors.New("isError result: " + text)
	}
	return text, nil
}
