package manager

import "github.com/mcpwire/mcpwire/mcp"

// toolTable maps model-facing names to the tools they stand for. The
// manager routes calls through it and never parses a name.
type toolTable struct {
	entries []ToolEntry
	routes  map[string]route
}

type route struct {
	server *server
	tool   string
	entry  int // index in entries
}

// rebuild recomputes the table from every server's current tools. Names
// depend on the whole set (see assignNames), so any server's change
// rebuilds all of it.
func (m *Manager) rebuild() {
	m.tableMu.Lock()
	defer m.tableMu.Unlock()
	type serverTools struct {
		s      *server
		tools  []mcp.Tool
		cached bool
	}
	var all []serverTools
	var refs []toolRef
	for _, s := range m.servers {
		s.mu.Lock()
		if s.toolsKnown {
			all = append(all, serverTools{s, s.tools, s.toolsCached})
			for _, t := range s.tools {
				refs = append(refs, toolRef{s.name, t.Name})
			}
		}
		s.mu.Unlock()
	}
	names := assignNames(refs)
	t := toolTable{routes: make(map[string]route, len(refs))}
	for _, st := range all {
		for _, tool := range st.tools {
			n := names[toolRef{st.s.name, tool.Name}]
			t.routes[n] = route{st.s, tool.Name, len(t.entries)}
			t.entries = append(t.entries, ToolEntry{Name: n, Server: st.s.name, Tool: tool, Cached: st.cached})
		}
	}
	m.table = t
}

// lookup finds the tool behind a model-facing name.
func (m *Manager) lookup(name string) (route, bool) {
	m.tableMu.Lock()
	defer m.tableMu.Unlock()
	r, ok := m.table.routes[name]
	return r, ok
}

// Tool returns the entry of the tool with that model-facing name, so a
// caller can see which server and tool a name stands for without calling
// it.
func (m *Manager) Tool(name string) (ToolEntry, bool) {
	m.tableMu.Lock()
	defer m.tableMu.Unlock()
	r, ok := m.table.routes[name]
	if !ok {
		return ToolEntry{}, false
	}
	return m.table.entries[r.entry], true
}
