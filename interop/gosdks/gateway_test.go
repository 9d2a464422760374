package gosdks_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	url := listenServe(t, bin, []string{"XDG_CACHE_HOME=" + t.TempDir()}, "--config", gatewayConfig(t))
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
