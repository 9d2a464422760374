package manager

import (
	"slices"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/mcp"
)

// toolTable maps model-facing names to the tools they stand for. The
// manager routes calls through it and never parses a name. A published
// table is never modified.
//
// The table is rebuilt lazily: a change to a server's tools only bumps
// Manager.tableGen (tableChanged), and the next reader rebuilds the table
// once (currentTable), however many changes came in between. Starting
// twenty servers thus costs one rebuild when their tools are first read,
// not one per server event, and a reader never sees a table older than a
// change that was made before it read.
type toolTable struct {
	gen    uint64           // Manager.tableGen it was built at
	parts  []tablePart      // every server, by name: the order names are assigned in
	config []int32          // index in parts of Manager.servers[i]
	routes map[string]route // route.grp indexes parts

	// list is what Tools returns for this table, made by the first
	// reader: a host asks for its tools on every model turn, and a
	// 20-server start asks twice (the settled snapshot, then the host),
	// so each table builds its ToolEntry values (184 bytes a tool) once.
	listOnce sync.Once
	list     []ToolEntry
}

// tablePart is one server's tools as the table shows them.
type tablePart struct {
	server *server
	tools  []mcp.Tool
	// names is what assigned was computed from: the server's names, or
	// noNames while its tools are unknown. Equal pointers mean equal
	// tool names, so a rebuild where no part's names changed keeps the
	// assignment.
	names    *serverNames
	assigned []string // model-facing name of tools[i]
	cached   bool
}

// noNames stands for the tools of a server whose tools are unknown.
var noNames = &serverNames{}

// tableChanged records that a server's tools, or whether they are
// cached, changed; it is called after the change, before any event that
// announces it, so whoever reacts to the event reads the new table.
func (m *Manager) tableChanged() {
	m.tableGen.Add(1)
}

// currentTable returns a table that reflects every change recorded
// before the call, rebuilding it if needed. An up-to-date table costs two
// atomic loads and no lock.
func (m *Manager) currentTable() *toolTable {
	if t := m.table.Load(); t != nil && t.gen == m.tableGen.Load() {
		return t
	}
	m.tableMu.Lock()
	defer m.tableMu.Unlock()
	// The generation is read before the servers are: a change recorded
	// after this load makes the table stale even if the build saw it.
	gen := m.tableGen.Load()
	prev := m.table.Load()
	if prev != nil && prev.gen == gen {
		return prev
	}
	t := m.buildTable(gen, prev)
	m.table.Store(t)
	return t
}

// buildTable builds the table from every server's current tools. Names
// depend on the whole set (see assignGroups), so they are assigned again
// whenever any server's tool names changed; each server's share of the
// work (sanitizing, hashing, sorting) was done when its tools changed.
// m.tableMu is held.
func (m *Manager) buildTable(gen uint64, prev *toolTable) *toolTable {
	t := &toolTable{gen: gen, parts: make([]tablePart, len(m.servers))}
	if prev != nil {
		t.config = prev.config // m.servers is fixed after New
	} else {
		t.config = nameOrder(m.servers)
	}
	groups := make([]*serverNames, len(t.parts))
	same := prev != nil
	for i, s := range m.servers {
		g := t.config[i]
		p := &t.parts[g]
		p.server, p.names = s, noNames
		s.mu.Lock()
		if s.toolsKnown {
			p.tools, p.names, p.cached = s.tools, s.names, s.toolsCached
		}
		s.mu.Unlock()
		groups[g] = p.names
		same = same && prev.parts[g].names == p.names
	}
	if same {
		for g := range t.parts {
			t.parts[g].assigned = prev.parts[g].assigned
		}
		t.routes = prev.routes
		return t
	}
	assigned, routes := assignGroups(groups)
	for g := range t.parts {
		t.parts[g].assigned = assigned[g]
	}
	t.routes = routes
	return t
}

// nameOrder returns, for each server, its place among the servers sorted
// by name.
func nameOrder(servers []*server) []int32 {
	byName := make([]int32, len(servers))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int { return strings.Compare(servers[a].name, servers[b].name) })
	place := make([]int32, len(servers))
	for g, i := range byName {
		place[i] = int32(g)
	}
	return place
}

// entry is the ToolEntry of route r.
func (t *toolTable) entry(r route) ToolEntry {
	p := &t.parts[r.grp]
	return ToolEntry{Name: p.assigned[r.idx], Server: p.server.name, Tool: p.tools[r.idx], Cached: p.cached}
}

// entries lists every tool in server config order, then each server's.
// The slice is the table's own, shared by every caller until the table
// is replaced; its capacity is its length, so a caller's append copies it.
func (t *toolTable) entries() []ToolEntry {
	t.listOnce.Do(func() {
		if len(t.routes) == 0 {
			return
		}
		out := make([]ToolEntry, 0, len(t.routes))
		for _, g := range t.config {
			for i := range t.parts[g].tools {
				out = append(out, t.entry(route{g, int32(i)}))
			}
		}
		t.list = out[:len(out):len(out)]
	})
	return t.list
}

// lookup finds the server and tool behind a model-facing name.
func (m *Manager) lookup(name string) (*server, string, bool) {
	t := m.currentTable()
	r, ok := t.routes[name]
	if !ok {
		return nil, "", false
	}
	p := &t.parts[r.grp]
	return p.server, p.tools[r.idx].Name, true
}

// Tool returns the entry of the tool with that model-facing name, so a
// caller can see which server and tool a name stands for without calling
// it.
func (m *Manager) Tool(name string) (ToolEntry, bool) {
	m.refreshStale(toolList)
	t := m.currentTable()
	r, ok := t.routes[name]
	if !ok {
		return ToolEntry{}, false
	}
	return t.entry(r), true
}
