package config_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpwire/mcpwire/config"
)

func ExampleParse() {
	data := []byte(`{
  "mcpServers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/",
      "headers": {"Authorization": "Bearer ${GITHUB_PAT}"}
    },
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${ROOT:-.}"]},
    "broken": {"command": "run", "env": {"TOKEN": "${MISSING_TOKEN}"}}
  }
}`)
	env := map[string]string{"GITHUB_PAT": "ghp-example"}
	servers, problems := config.Parse(data, ".mcp.json", config.FormatAuto, config.LoadOptions{
		Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
	for _, s := range servers {
		if s.Type == config.TypeStdio {
			fmt.Println(s, s.Command, s.Args)
		} else {
			fmt.Println(s, s.URL)
		}
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	// Output:
	// github (http, .mcp.json:3) https://api.githubcopilot.com/mcp/
	// files (stdio, .mcp.json:8) npx [-y @modelcontextprotocol/server-filesystem .]
	// .mcp.json:9:51: server "broken": env.TOKEN: variable "MISSING_TOKEN" is not set (write ${MISSING_TOKEN:-default} to give a default)
}

func ExampleLoad() {
	root, err := os.MkdirTemp("", "mcpwire-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(root)
	project := filepath.Join(root, "project")
	home := filepath.Join(root, "home")
	write := func(path, data string) {
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		_ = os.WriteFile(path, []byte(data), 0o644)
	}
	write(filepath.Join(project, ".mcp.json"), `{"mcpServers": {"db": {"command": "db-mcp"}}}`)
	write(filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"db": {"command": "old-db"}, "web": {"url": "https://mcp.example.com/mcp"}}}`)

	set, err := config.Load(config.LoadOptions{Dir: project, HomeDir: home, UserConfigDir: filepath.Join(home, ".config")})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range set.Servers {
		fmt.Printf("%s: %s %s%s (%s)\n", s.Name, s.Type, s.Command, s.URL, s.Source.Scope)
	}
	for _, s := range set.Shadowed {
		fmt.Printf("shadowed: %s %s (%s)\n", s.Name, s.Command, s.Source.Scope)
	}
	fmt.Println("problems:", set.Err())
	// Output:
	// db: stdio db-mcp (project)
	// web: auto https://mcp.example.com/mcp (user)
	// shadowed: db old-db (user)
	// problems: <nil>
}
