package cli

// completion_servers.go completes the names the configured servers know:
// the servers themselves, and their tools, prompts and resources. It
// reads the config with the same loader as every command, and asks the
// servers through a manager, under rules that keep a TAB key cheap and
// safe:
//
//   - A project file (.mcp.json, .vscode/mcp.json, …) the user has not
//     approved with mcpwire trust is not loaded at all (config.Load leaves
//     it out), so it completes nothing. Even an approved one is never
//     started by a TAB key: its tools come from the tool cache only, which
//     holds them once the user ran a command on that server; mayStart is
//     the one place that says so.
//   - Tools come from the cache when it has them; a server without
//     cached tools is connected (and its tools cached for the next TAB).
//   - Connecting is bounded by completionWait in all; a server slower
//     than that completes nothing this time.

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// completionWait bounds the connecting done for one completion.
const completionWait = 2 * time.Second

// listed is what a completion lists of the configured servers.
type listed int

const (
	nothingListed listed = iota // server names only
	toolsListed
	promptsListed
	resourcesListed
)

// mayStart reports whether completion may start server s (run its
// command, or connect to its URL).
func mayStart(s *config.Server) bool {
	return s.Source.Scope != "project"
}

// configuredNames completes from the configured servers: with --server
// given (or SERVER/ typed), that server's names; otherwise SERVER/NAME
// of every enabled server, and the server names themselves where a
// command takes one (what is nothingListed, or tools).
func configuredNames(ctx context.Context, command string, line scannedLine, cur string, what listed) completion {
	c := completion{kind: "words"}
	set, _ := loadConfig(line.values["config"], nil)
	if set == nil {
		return c
	}
	var enabled []*config.Server
	for _, s := range set.Servers {
		if s.Enabled {
			enabled = append(enabled, s)
		}
	}
	named := ""
	if v := line.values["server"]; len(v) > 0 {
		named = v[len(v)-1]
	}
	if what == nothingListed || (what == toolsListed && command == "tools" && named == "") {
		for _, s := range enabled {
			c.items = append(c.items, candidate{s.Name, "server: " + s.Source.File})
		}
	}
	if what == nothingListed {
		return c
	}
	servers := enabled
	if named != "" {
		servers = nil
		if s := set.Lookup(named); s != nil {
			servers = []*config.Server{s}
		}
	} else if s := typedServer(enabled, cur); s != nil {
		servers = []*config.Server{s} // SERVER/ typed: only that one is asked
	}
	prefix := func(server string) string {
		if named != "" {
			return ""
		}
		return server + "/"
	}
	for _, n := range listNames(ctx, servers, what) {
		c.items = append(c.items, candidate{prefix(n.server) + n.word, n.desc})
	}
	return c
}

// typedServer is the server whose "NAME/" cur starts with, if any.
func typedServer(servers []*config.Server, cur string) *config.Server {
	for _, s := range servers {
		if strings.HasPrefix(cur, s.Name+"/") {
			return s
		}
	}
	return nil
}

// serverName is one name a server listed.
type serverName struct {
	server, word, desc string
}

// listNames asks servers for what, under the rules at the top of the file.
func listNames(ctx context.Context, servers []*config.Server, what listed) []serverName {
	lazy := make([]*config.Server, len(servers))
	for i, s := range servers {
		cp := *s
		cp.Lazy = true // Start loads the cache and starts nothing
		lazy[i] = &cp
	}
	client := &mcp.ClientOptions{ClientInfo: mcp.Implementation{Name: ClientName, Version: Version()}}
	m := manager.NewServers(lazy, &manager.Options{
		StartupGate:    -1,
		ConnectTimeout: completionWait,
		ReconnectWait:  completionWait,
		Client:         client,
		StartUntrusted: trustProjectFromEnv(), // as configured.go: the same servers a command would use
		Dial:           signin.Dial(manager.DialWith("", nil), signin.Options{Out: io.Discard, AddSecret: func(string) {}}),
	})
	defer m.Close()
	if _, err := m.Start(ctx); err != nil {
		return nil
	}
	cached := make(map[string]bool)
	if what == toolsListed {
		for _, t := range m.Tools() {
			cached[t.Server] = true
		}
	}
	ctx, cancel := context.WithTimeout(ctx, completionWait)
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		if mayStart(s) && !cached[s.Name] {
			wg.Go(func() { _ = m.Connect(ctx, s.Name) }) // a failure completes nothing
		}
	}
	wg.Wait()
	var out []serverName
	switch what {
	case toolsListed:
		for _, t := range m.Tools() {
			out = append(out, serverName{t.Server, t.Tool.Name, t.Tool.Description})
		}
	case promptsListed:
		for _, p := range m.Prompts() {
			out = append(out, serverName{p.Server, p.Prompt.Name, p.Prompt.Description})
		}
	case resourcesListed:
		for _, r := range m.Resources() {
			out = append(out, serverName{r.Server, r.Resource.URI, r.Resource.Name})
		}
	}
	return out
}
