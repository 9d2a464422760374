package manager_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// Every server gets the same handlers; the ctx of each request says which
// server asks (mcp.OriginOf), so an agent can tell its user.
func ExampleOptions_perServerHandlers() {
	servers := map[string]*mcptest.Server{"github": mcptest.NewDefault(nil), "notes": mcptest.NewDefault(nil)}
	for _, s := range servers {
		defer s.Close()
	}
	m := manager.NewServers([]*config.Server{
		{Name: "github", Type: config.TypeStdio, Command: "github-server", Enabled: true},
		{Name: "notes", Type: config.TypeStdio, Command: "notes-server", Enabled: true},
	}, &manager.Options{
		DisableCache: true,
		Dial: func(_ context.Context, s *config.Server) (transport.Transport, error) {
			return servers[s.Name].Transport(), nil
		},
		Client: &mcp.ClientOptions{
			Sampling: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				o, _ := mcp.OriginOf(ctx)
				answer := fmt.Sprintf("%s asked for %q", o.Server, req.Messages[0].Content[0].Text)
				return &mcp.CreateMessageResult{Content: mcp.SamplingContent{mcp.TextContent(answer)}, Model: "m"}, nil
			},
		},
	})
	defer m.Close()
	ctx := context.Background()
	for _, name := range []string{"github", "notes"} {
		res, err := m.CallServerTool(ctx, name, "sample", map[string]string{"prompt": "a summary"}, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Content[0].Text)
	}
	// Output:
	// github asked for "a summary"
	// notes asked for "a summary"
}
