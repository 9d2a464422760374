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

	opts := config.LoadOptions{Dir: project, HomeDir: home, UserConfigDir: filepath.Join(home, ".config"), StateDir: filepath.Join(root, "state")}
	print := func(set *config.Set) {
		for _, s := range set.Servers {
			fmt.Printf("%s: %s %s%s (%s)\n", s.Name, s.Type, s.Command, s.URL, s.Source.Scope)
		}
		for _, in := range set.Untrusted {
			for _, s := range in.Servers {
				fmt.Printf("untrusted: %s %s in %s\n", s.Name, s.Command, filepath.Base(in.File))
			}
		}
	}
	set, err := config.Load(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The project's .mcp.json came with the repository: nothing of it
	// loads until the user approves the content shown.
	print(set)
	in := set.Untrusted[0]
	if err := config.Approve(in.File, in.SHA256, opts); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("-- approved")
	set, err = config.Load(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	print(set)
	fmt.Println("problems:", set.Err())
	// Output:
	// user:db: stdio old-db (user)
	// web: auto https://mcp.example.com/mcp (user)
	// untrusted: db db-mcp in .mcp.json
	// -- approved
	// db: stdio db-mcp (project)
	// user:db: stdio old-db (user)
	// web: auto https://mcp.example.com/mcp (user)
	// problems: <nil>
}
