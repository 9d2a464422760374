package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// inProcess runs a gateway over upstream servers served in process, and
// returns the project's client connected to it.
func inProcess(t *testing.T, upstreams map[string]*server.Server, opts *Options) *mcp.Client {
	t.Helper()
	return host(t, newGateway(t, upstreams, opts), nil)
}

// newGateway runs a gateway over upstream servers served in process; with
// opts.Relay, the upstreams' requests of their client are relayed.
func newGateway(t *testing.T, upstreams map[string]*server.Server, opts *Options) *Gateway {
	t.Helper()
	var defs []*config.Server
	for name, up := range upstreams {
		t.Cleanup(func() { _ = up.Close() })
		defs = append(defs, &config.Server{Name: name, Type: config.TypeStdio, Command: "in-process", Enabled: true})
	}
	client := &mcp.ClientOptions{}
	if opts != nil && opts.Relay != nil {
		opts.Relay.Apply(client)
	}
	m := manager.NewServers(defs, &manager.Options{
		DisableCache:  true,
		ReconnectWait: 200 * time.Millisecond, // a closed upstream fails its call soon
		Client:        client,
		Dial: func(_ context.Context, s *config.Server) (transport.Transport, error) {
			return upstreams[s.Name].Transport(), nil
		},
	})
	t.Cleanup(func() { _ = m.Close() })
	if _, err := m.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	g, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// host connects the project's client to g in process.
func host(t *testing.T, g *Gateway, opts *mcp.ClientOptions) *mcp.Client {
	t.Helper()
	stream, _ := server.Connect(t, g.srv)
	c, err := mcp.NewClient(t.Context(), stream, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestCancellationReachesTheUpstream(t *testing.T) {
	up := server.NewServer(nil)
	started, cancelled := make(chan struct{}), make(chan struct{})
	up.AddTool(server.Tool{Name: "block"}, func(ctx context.Context, _ *server.ToolRequest) (*server.ToolResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	c := inProcess(t, map[string]*server.Server{"up": up}, nil)

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, "up__block", nil, nil)
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("call: %v", err)
	}
	// A bound only for failing, not a measure of speed.
	wait, stop := context.WithTimeout(t.Context(), time.Minute)
	defer stop()
	select {
	case <-cancelled:
	case <-wait.Done():
		t.Fatal("the upstream's handler was not cancelled")
	}
}

func TestUpstreamErrorsStayTheirs(t *testing.T) {
	good, bad := server.NewServer(nil), server.NewServer(nil)
	good.AddTool(server.Tool{Name: "hello"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return server.TextResult("hi"), nil
	})
	bad.AddTool(server.Tool{Name: "hello"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return nil, errors.New("upstream trouble")
	})
	// Redact stands for the CLI's masking: it rewrites one value.
	redact := func(s string) string { return strings.ReplaceAll(s, `"bad"`, `"BAD"`) }
	c := inProcess(t, map[string]*server.Server{"good": good, "bad": bad}, &Options{Redact: redact})
	res, err := c.CallTool(t.Context(), "bad__hello", nil, nil)
	if err != nil || !res.IsError || res.Content[0].Text != "upstream trouble" {
		t.Fatalf("bad__hello: %v %+v", err, res)
	}
	// Once the server is gone, its calls fail naming it (the gateway's own
	// failure text passes Redact); the other's go on.
	_ = bad.Close()
	res, err = c.CallTool(t.Context(), "bad__hello", nil, nil)
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, `"BAD"`) {
		t.Fatalf("bad__hello after close: %v %+v", err, res)
	}
	res, err = c.CallTool(t.Context(), "good__hello", nil, nil)
	if err != nil || res.IsError || res.Content[0].Text != "hi" {
		t.Fatalf("good__hello: %v %+v", err, res)
	}
}

func TestToolsListIsPaged(t *testing.T) {
	up := server.NewServer(nil)
	for _, name := range []string{"a", "b", "c"} {
		up.AddTool(server.Tool{Name: name}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) { return nil, nil })
	}
	c := inProcess(t, map[string]*server.Server{"up": up}, &Options{PageSize: 2})
	var names []string
	cursor := ""
	for pages := 1; ; pages++ {
		page, err := c.ListToolsPage(t.Context(), cursor)
		if err != nil || len(page.Tools) > 2 {
			t.Fatalf("page %d: %v, %+v", pages, err, page)
		}
		for _, tool := range page.Tools {
			names = append(names, tool.Name)
		}
		if page.NextCursor == "" {
			if pages != 2 {
				t.Errorf("%d pages, want 2", pages)
			}
			break
		}
		cursor = page.NextCursor
	}
	if strings.Join(names, " ") != "up__a up__b up__c" {
		t.Errorf("tools: %v", names)
	}
}
