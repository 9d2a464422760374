package gateway

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// leakSecret stands for a credential the gateway holds for an upstream
// (an env value, a header), which the CLI registers with Redact.
const leakSecret = "tok-LEAKED-4242"

// leakyUpstream echoes the gateway's credential back in every way a
// server can reach a host: a tool's text and structured result, a
// progress message, a log message, a resource's text and an error.
func leakyUpstream() *server.Server {
	up := server.NewServer(nil)
	up.AddTool(server.Tool{Name: "env"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		_ = req.Progress(ctx, 1, 2, "reading "+leakSecret)
		_, _ = req.Session.Log(ctx, "info", "TOKEN="+leakSecret)
		return server.TextResult("TOKEN=" + leakSecret), nil
	})
	up.AddTool(server.Tool{Name: "fails"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return nil, errors.New("cannot use " + leakSecret)
	})
	up.AddResource(server.Resource{URI: "mem://env", Name: "env", Text: "TOKEN=" + leakSecret})
	return up
}

// Upstream credentials stay the gateway's own: whatever an upstream sends
// back that holds one of them reaches no host, over stdio or HTTP, in
// either era. Redact is applied to every string of every message the
// gateway sends a host, so the JSON stays valid and only the value goes.
func TestUpstreamCredentialsNeverReachTheHost(t *testing.T) {
	redact := func(s string) string { return strings.ReplaceAll(s, leakSecret, "***") }
	g := newGateway(t, map[string]*server.Server{"up": leakyUpstream()}, &Options{Redact: redact})
	web := httptest.NewServer(g.Handler(&HTTPOptions{}))
	t.Cleanup(web.Close)
	hosts := map[string]func(o *mcp.ClientOptions) *mcp.Client{
		"stdio": func(o *mcp.ClientOptions) *mcp.Client { return host(t, g, o) },
		"http": func(o *mcp.ClientOptions) *mcp.Client {
			c, err := mcp.Connect(t.Context(), &transport.StreamableHTTP{URL: web.URL + "/mcp"}, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Close() })
			return c
		},
	}
	for name, connect := range hosts {
		for _, era := range eras {
			t.Run(name+"/"+era, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				var seen []string
				logs := make(chan string, 8)
				o := pinned(era)
				o.OnLogMessage = func(_ context.Context, m mcp.LoggingMessage) { logs <- string(m.Data) }
				c := connect(o)
				_ = c.SetLogLevel(ctx, "debug")
				res, err := c.CallTool(ctx, "up__env", nil, &mcp.CallOptions{OnProgress: func(_ context.Context, p mcp.ProgressNotification) {
					seen = append(seen, "progress: "+p.Message)
				}})
				if err != nil {
					t.Fatal(err)
				}
				seen = append(seen, "result: "+texts(res))
				if era != mcp.ModernProtocolVersion { // logging/setLevel is of the legacy era
					select {
					case l := <-logs:
						seen = append(seen, "log: "+l)
					case <-ctx.Done():
						t.Fatal("no log message reached the host")
					}
				}
				if res, err := c.CallTool(ctx, "up__fails", nil, nil); err != nil {
					seen = append(seen, "error: "+err.Error())
				} else {
					seen = append(seen, "error result: "+texts(res))
				}
				contents, err := c.ReadResource(ctx, "mem://env")
				if err != nil {
					t.Fatal(err)
				}
				seen = append(seen, "resource: "+textOf(t, contents.Contents))
				for _, s := range seen {
					if strings.Contains(s, leakSecret) {
						t.Errorf("the credential reached the host: %s", s)
					}
				}
				if !strings.Contains(strings.Join(seen, "\n"), "TOKEN=***") {
					t.Errorf("the host saw none of the masked text: %q", seen)
				}
			})
		}
	}
}

func texts(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}
