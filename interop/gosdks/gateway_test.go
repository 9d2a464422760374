package gosdks_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatewayConfig is a config whose one server is this module's go-sdk
// server over stdio, so the gateway's upstream is also another SDK's.
func gatewayConfig(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	up, _ := json.Marshal(map[string]any{"command": exe, "args": []string{serverArg + "go-sdk"}})
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"up": `+string(up)+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The go-sdk's client, as a host, reaches a go-sdk server through
// "mcpwire serve --stdio".
func TestGoSDKClientThroughServeStdio(t *testing.T) {
	bin := buildCLI(t)
	cmd := exec.Command(bin, "serve", "--stdio", "--config", gatewayConfig(t))
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	c := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-host", Version: "1"}, nil)
	s, err := c.Connect(t.Context(), &gosdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list.Tools, func(tool *gosdk.Tool) bool { return tool.Name == "up__"+toolEcho }) {
		t.Fatalf("tools/list: no up__%s", toolEcho)
	}
	res, err := s.CallTool(t.Context(), &gosdk.CallToolParams{Name: "up__" + toolEcho, Arguments: map[string]any{"text": "hi"}})
	if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*gosdk.TextContent).Text != "echo: hi" {
		t.Fatalf("call: %v %+v", err, res)
	}
}

// mcp-go's client, as a host of either era, reaches the go-sdk server
// through "mcpwire serve --listen".
func TestMcpGoClientThroughServeHTTP(t *testing.T) {
	bin := buildCLI(t)
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--no-auth", "--config", gatewayConfig(t))
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
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
	go func() {
		for lines.Scan() {
		}
	}()
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			c, err := mcpgoclient.NewStreamableHttpClient(url)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			var init mcpgo.InitializeRequest
			init.Params.ProtocolVersion = version
			init.Params.ClientInfo = mcpgo.Implementation{Name: "mcp-go-host", Version: "1"}
			if _, err := c.Initialize(t.Context(), init); err != nil {
				t.Fatal(err)
			}
			list, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(list.Tools, func(tool mcpgo.Tool) bool { return tool.Name == "up__"+toolEcho }) {
				t.Fatalf("tools/list: no up__%s", toolEcho)
			}
			var call mcpgo.CallToolRequest
			call.Params.Name = "up__" + toolEcho
			call.Params.Arguments = map[string]any{"text": "hi"}
			res, err := c.CallTool(t.Context(), call)
			if err != nil || res.IsError || len(res.Content) != 1 {
				t.Fatalf("call: %v %+v", err, res)
			}
			if text, ok := res.Content[0].(mcpgo.TextContent); !ok || text.Text != "echo: hi" {
				t.Fatalf("call: %+v", res.Content[0])
			}
		})
	}
}
