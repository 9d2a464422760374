package manager

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// tableFleet is a manager of never-started servers with these names, for
// tests that set their tools directly.
func tableFleet(names ...string) *Manager {
	defs := make([]*config.Server, len(names))
	for i, n := range names {
		defs[i] = &config.Server{Name: n, Type: config.TypeStdio, Command: "x", Enabled: true}
	}
	return NewServers(defs, &Options{DisableCache: true})
}

// setTools changes s's tools as a connect or a refresh does.
func setTools(s *server, tools []mcp.Tool, cached bool) {
	s.mu.Lock()
	changed := s.setToolsLocked(tools, cached)
	s.mu.Unlock()
	if changed {
		s.m.tableChanged()
	}
}

// expectedTools is what Tools must return for the servers' current tools,
// named by referenceNames.
func expectedTools(m *Manager) []ToolEntry {
	type known struct {
		s      *server
		tools  []mcp.Tool
		cached bool
	}
	var all []known
	var refs []toolRef
	for _, s := range m.servers {
		s.mu.Lock()
		if s.toolsKnown {
			all = append(all, known{s, s.tools, s.toolsCached})
			for _, t := range s.tools {
				refs = append(refs, toolRef{s.name, t.Name})
			}
		}
		s.mu.Unlock()
	}
	names := referenceNames(refs)
	var out []ToolEntry
	for _, k := range all {
		for _, t := range k.tools {
			out = append(out, ToolEntry{Name: names[toolRef{k.s.name, t.Name}], Server: k.s.name, Tool: t, Cached: k.cached})
		}
	}
	return out
}

// checkTable compares every way of reading the table with expectedTools.
func checkTable(t *testing.T, m *Manager, step int) {
	t.Helper()
	want := expectedTools(m)
	got := m.Tools()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("step %d: Tools()\n got  %v\n want %v", step, toolNames(got), toolNames(want))
	}
	for _, e := range want {
		if te, ok := m.Tool(e.Name); !ok || !reflect.DeepEqual(te, e) {
			t.Fatalf("step %d: Tool(%q) = %+v, %v; want %+v", step, e.Name, te, ok, e)
		}
		if s, tool, ok := m.lookup(e.Name); !ok || s.name != e.Server || tool != e.Tool.Name {
			t.Fatalf("step %d: lookup(%q) = %v %q %v", step, e.Name, s, tool, ok)
		}
	}
	if _, ok := m.Tool("mcp__nobody__nothing"); ok {
		t.Fatalf("step %d: a name no tool has was found", step)
	}
}

// randomTools draws a tool list from names built to collide once
// sanitized (as collidingRefs does), with repeats (the first counts) and
// a description that says which draw it came from.
func randomTools(rng *rand.Rand, draw int) []mcp.Tool {
	refs := collidingRefs(rng, rng.IntN(12))
	list := make([]mcp.Tool, len(refs))
	for i, r := range refs {
		list[i] = mcp.Tool{Name: r.tool, Description: fmt.Sprint("draw ", draw)}
	}
	return list
}

// Whatever order and grouping server changes arrive in, every read sees
// the table referenceNames gives for the tools of that moment: lazy
// rebuilds, per-server naming kept across changes and assignments kept
// when no name changed must never show a stale or different table.
func TestTableFollowsInterleavedChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 20 {
		// Config order differs from name order, and the names collide.
		m := tableFleet("y_z", "a.b", strings.Repeat("s", 49)+".", "x", "a_b", "y.z", "a b", strings.Repeat("s", 50))
		for step := range 300 {
			s := m.servers[rng.IntN(len(m.servers))]
			switch op := rng.IntN(10); {
			case op < 4: // connect or list_changed: new tools
				setTools(s, randomTools(rng, step), rng.IntN(3) == 0)
			case op < 6: // same names, new descriptions
				s.mu.Lock()
				known := s.toolsKnown
				tools := append([]mcp.Tool(nil), s.tools...)
				s.mu.Unlock()
				if known {
					for i := range tools {
						tools[i].Description = fmt.Sprint("again ", step)
					}
					setTools(s, tools, false)
				}
			case op < 7: // disconnected: the tools stay, as cached
				s.mu.Lock()
				s.toolsCached = s.toolsKnown
				s.mu.Unlock()
				m.tableChanged()
			default: // a read, after any number of changes
				checkTable(t, m, round*1000+step)
			}
		}
		checkTable(t, m, round*1000+999)
		m.Close()
	}
}

// variantTools is one of two tool lists a server flips between: sizes
// and names differ, and the description names the variant, so a reader
// can tell a whole list from a mix.
func variantTools(server string, v int) []mcp.Tool {
	n := 30 + 20*v
	list := make([]mcp.Tool, n)
	for i := range list {
		list[i] = mcp.Tool{Name: fmt.Sprintf("%c_%03d", 'a'+v, i), Description: server + fmt.Sprint(" variant ", v)}
	}
	return list
}

// Reads racing with changes (run with -race) always see, for each server,
// one whole tool list it had, under its own names, and routes that lead
// to the tool a name stands for; after the changes stop, the last lists.
func TestTableReadsDuringChanges(t *testing.T) {
	names := []string{"k0", "k1", "k2", "k3", "k4", "k5"}
	m := tableFleet(names...)
	defer m.Close()
	const flips = 200
	var writers, readers sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, len(names)+4)
	for _, s := range m.servers {
		writers.Go(func() {
			for i := range flips {
				list, cached := variantTools(s.name, i%2), i%3 == 0
				setTools(s, list, cached)
				if i%7 == 0 {
					s.mu.Lock()
					s.toolsCached = true
					s.mu.Unlock()
					m.tableChanged()
					cached = true
				}
				// A read after a change sees it, whatever other
				// servers' changes and reads race with it.
				name := ToolName(s.name, list[0].Name)
				if e, ok := m.Tool(name); !ok || e.Tool.Description != list[0].Description || e.Cached != cached {
					errs <- fmt.Errorf("change %d of %s: Tool(%q) = %+v, %v", i, s.name, name, e, ok)
					return
				}
			}
		})
	}
	for r := range 4 {
		readers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if err := checkConsistent(m, r); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	writers.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// The last change of every server shows.
	for _, e := range m.Tools() {
		if want := variantTools(e.Server, (flips-1)%2); e.Tool.Description != want[0].Description {
			t.Fatalf("after the changes: %s shows %q", e.Name, e.Tool.Description)
		}
	}
	checkTable(t, m, flips)
}

// checkConsistent reads the table one way (by r) and checks what one read
// can: whole lists per server, names as ToolName gives them (these
// servers' names never collide), and lookups that lead to the right tool.
func checkConsistent(m *Manager, r int) error {
	switch r % 2 {
	case 0:
		byServer := map[string][]ToolEntry{}
		for _, e := range m.Tools() {
			byServer[e.Server] = append(byServer[e.Server], e)
			if e.Name != ToolName(e.Server, e.Tool.Name) {
				return fmt.Errorf("%s/%s named %q", e.Server, e.Tool.Name, e.Name)
			}
		}
		for srv, es := range byServer {
			v := 0
			if es[0].Tool.Name[0] == 'b' {
				v = 1
			}
			want := variantTools(srv, v)
			if len(es) != len(want) {
				return fmt.Errorf("%s: %d tools, a mix of its lists", srv, len(es))
			}
			for i, e := range es {
				if !reflect.DeepEqual(e.Tool, want[i]) {
					return fmt.Errorf("%s: tool %d is %+v, want %+v", srv, i, e.Tool, want[i])
				}
			}
		}
	default:
		for _, name := range []string{"a_003", "b_045", "a_029"} {
			full := ToolName("k3", name)
			if s, tool, ok := m.lookup(full); ok && (s.name != "k3" || tool != name) {
				return fmt.Errorf("lookup(%q) led to %s/%s", full, s.name, tool)
			}
			if e, ok := m.Tool(full); ok && (e.Server != "k3" || e.Tool.Name != name || e.Name != full) {
				return fmt.Errorf("Tool(%q) = %+v", full, e)
			}
		}
	}
	return nil
}

// A subscriber that reads the tools when an event says they changed
// sees the change, although the table is only rebuilt when read.
func TestEventSubscribersReadNewTools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		// Start's snapshot, at the gate, builds the table before the
		// server is up.
		f.set(func(f *fleet) { f.delay["a"] = time.Second })
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		type read struct {
			kind         EventKind
			echo, extra  bool
			echoCached   bool
			listedExtras int
		}
		reads := make(chan read, 16)
		m.Subscribe(func(e Event) {
			if e.Kind != Connected && e.Kind != ToolsChanged {
				return
			}
			echo, echoOK := m.Tool("mcp__a__echo")
			_, extraOK := m.Tool("mcp__a__extra")
			reads <- read{e.Kind, echoOK, extraOK, echo.Cached, len(hasToolNamed(m.Tools(), "mcp__a__extra"))}
		})
		if snap, _ := m.Start(t.Context()); len(snap.Tools) != 0 {
			t.Fatalf("tools before the server connected: %v", toolNames(snap.Tools))
		}
		// A first connect is Connected alone: no tools were known before.
		if r := <-reads; r.kind != Connected || !r.echo || r.echoCached {
			t.Errorf("on %s: echo listed %v, cached %v", r.kind, r.echo, r.echoCached)
		}
		srv.AddTool(mcptest.Tool{Name: "extra"}, echoHandler)
		if r := <-reads; r.kind != ToolsChanged || !r.extra || r.listedExtras != 1 {
			t.Errorf("on %s after a tool was added: Tool found it %v, Tools listed it %d times", r.kind, r.extra, r.listedExtras)
		}
		srv.RemoveTool("extra")
		if r := <-reads; r.kind != ToolsChanged || r.extra || r.listedExtras != 0 {
			t.Errorf("on %s after the tool was removed: Tool found it %v, Tools listed it %d times", r.kind, r.extra, r.listedExtras)
		}
	})
}

// hasToolNamed returns the entries named name.
func hasToolNamed(tools []ToolEntry, name string) []ToolEntry {
	var out []ToolEntry
	for _, e := range tools {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// benchFleet is 20 servers of 1,000 tools named as the benchmark
// harness's canned server names them.
func benchFleet() (*Manager, [][]mcp.Tool) {
	names := make([]string, 20)
	lists := make([][]mcp.Tool, len(names))
	for i := range names {
		names[i] = fmt.Sprintf("s%d", i)
		for j := range 1000 {
			lists[i] = append(lists[i], mcp.Tool{Name: fmt.Sprintf("tool_%04d", j), Description: "d"})
		}
	}
	return tableFleet(names...), lists
}

// connectTools gives s tools it never had, as a first connect does, so
// their naming is computed afresh.
func connectTools(s *server, tools []mcp.Tool) {
	s.mu.Lock()
	s.toolsKnown, s.names = false, nil
	s.mu.Unlock()
	setTools(s, tools, false)
}

// BenchmarkToolTable measures the tool table of 20 servers of 1,000
// tools: connect (every server's tools arrive, one change each, then
// Tools), change (one server's tools change, then a lookup: every name is
// assigned again) and read (Tools of an unchanged table).
func BenchmarkToolTable(b *testing.B) {
	b.Run("connect", func(b *testing.B) {
		m, lists := benchFleet()
		defer m.Close()
		for b.Loop() {
			for i, s := range m.servers {
				connectTools(s, lists[i])
			}
			// As a host's start does: the settled snapshot, then the
			// host's own read of the tools.
			if len(m.Snapshot().Tools) != 20000 || len(m.Tools()) != 20000 {
				b.Fatal("tools")
			}
		}
	})
	b.Run("change", func(b *testing.B) {
		m := connectedBenchFleet()
		defer m.Close()
		list := m.servers[7].tools
		for b.Loop() {
			connectTools(m.servers[7], list)
			if _, ok := m.Tool("mcp__s7__tool_0007"); !ok {
				b.Fatal("lookup")
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		m := connectedBenchFleet()
		defer m.Close()
		for b.Loop() {
			if len(m.Tools()) != 20000 {
				b.Fatal("tools")
			}
		}
	})
}

// connectedBenchFleet is benchFleet with every server's tools known.
func connectedBenchFleet() *Manager {
	m, lists := benchFleet()
	for i, s := range m.servers {
		connectTools(s, lists[i])
	}
	return m
}

// Tools builds its entries once per change of the tools: readers between
// two changes share one slice, and a change gives the next reader a new
// one with the change in it.
func TestToolsIsBuiltOncePerChange(t *testing.T) {
	m := tableFleet("a", "b")
	defer m.Close()
	a, b := m.byName["a"], m.byName["b"]
	setTools(a, []mcp.Tool{{Name: "one"}, {Name: "two"}}, false)
	first, again := m.Tools(), m.Tools()
	if len(first) != 2 || &first[0] != &again[0] {
		t.Fatalf("two reads without a change: %d entries at %p and %p; want the same 2", len(first), &first[0], &again[0])
	}
	if snap := m.Snapshot(); &snap.Tools[0] != &first[0] {
		t.Errorf("the snapshot built its own entries")
	}
	// A caller's append never writes into the shared array.
	_ = append(first, ToolEntry{Name: "mine"})
	if got := m.Tools(); len(got) != 2 {
		t.Fatalf("after a caller's append: %d entries, want 2", len(got))
	}
	setTools(b, []mcp.Tool{{Name: "three"}}, false)
	after := m.Tools()
	if len(after) != 3 || &after[0] == &first[0] {
		t.Fatalf("after b's tools changed: %v (shared with before: %v)", toolNames(after), &after[0] == &first[0])
	}
	if !reflect.DeepEqual(after, expectedTools(m)) {
		t.Errorf("after the change: %v, want %v", toolNames(after), toolNames(expectedTools(m)))
	}
}
