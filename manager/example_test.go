package manager_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// A manager over the servers of the project's config files: start them,
// show the model its tools, route a call. Here the Dial seam reaches an
// in-process test server instead of starting the configured command.
func Example() {
	// config.Load reads the files; Parse reads one document.
	servers, problems := config.Parse([]byte(`{"mcpServers": {"notes": {"command": "notes-server"}}}`),
		".mcp.json", config.FormatMCPServers, config.LoadOptions{})
	if len(problems) > 0 {
		fmt.Println(problems)
		return
	}
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	m := manager.NewServers(servers, &manager.Options{
		DisableCache: true,
		Dial: func(ctx context.Context, s *config.Server) (transport.Transport, error) {
			return srv.Transport(), nil
		},
	})
	defer m.Close()

	ctx := context.Background()
	if _, err := m.Start(ctx); err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range m.Tools() {
		if strings.HasSuffix(t.Name, "echo") {
			fmt.Printf("%s -> server %s, tool %s\n", t.Name, t.Server, t.Tool.Name)
		}
	}
	res, err := m.CallTool(ctx, "mcp__notes__echo", map[string]any{"message": "hello"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].Text)
	// Output:
	// mcp__notes__echo -> server notes, tool echo
	// hello
}

// The model-facing name of a tool, made safe for model APIs.
func ExampleToolName() {
	fmt.Println(manager.ToolName("github", "create_issue"))
	fmt.Println(manager.ToolName("my.server", "files/read"))
	// Output:
	// mcp__github__create_issue
	// mcp__my_server__files_read
}

// Events arrive in order per server, on the subscriber's own goroutine.
func ExampleManager_Subscribe() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	m := manager.NewServers([]*config.Server{{Name: "a", Type: config.TypeStdio, Command: "a", Enabled: true}},
		&manager.Options{DisableCache: true, Dial: func(context.Context, *config.Server) (transport.Transport, error) {
			return srv.Transport(), nil
		}})
	var kinds []string
	m.Subscribe(func(e manager.Event) {
		if e.Kind != manager.Notification && e.Kind != manager.Warning {
			kinds = append(kinds, e.Kind.String())
		}
	})
	m.Start(context.Background())
	m.Close() // delivers what is queued before it returns
	fmt.Println(strings.Join(kinds, " "))
	// Output: connecting connected closed
}

// A lazy server connects on first use, and until then its tools are known
// only from the tool cache: with none (a first run, or DisableCache), a
// model is shown none of them. Connect fills the list.
func ExampleManager_Connect_lazy() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	m := manager.NewServers([]*config.Server{{Name: "notes", Type: config.TypeStdio, Command: "notes-server", Enabled: true, Lazy: true}},
		&manager.Options{DisableCache: true, Dial: func(context.Context, *config.Server) (transport.Transport, error) {
			return srv.Transport(), nil
		}})
	defer m.Close()
	ctx := context.Background()
	m.Start(ctx)
	st, _ := m.Server("notes")
	fmt.Println(st.State, len(m.Tools()), "tools")
	if err := m.Connect(ctx, "notes"); err != nil {
		fmt.Println(err)
		return
	}
	_, ok := m.Tool("mcp__notes__echo")
	fmt.Println("after Connect:", ok)
	// Output:
	// lazy 0 tools
	// after Connect: true
}
