package manager

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcptest"
)

var modelName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	long := strings.Repeat("t", 80)
	tests := []struct {
		server, tool, want string
	}{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"my.server", "get/item", "mcp__my_server__get_item"},
		{"a b", "x-y", "mcp__a_b__x-y"},
		{"ünï", "töol", "mcp___n___t_ol"},
		{"s", "emoji😀", "mcp__s__emoji_"},
		{"s", long, "mcp__s__" + long[:64-9-len("mcp__s__")] + "_" + shortHash("mcp__s__"+long)},
	}
	for _, tt := range tests {
		got := ToolName(tt.server, tt.tool)
		if got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
		if !modelName.MatchString(got) {
			t.Errorf("ToolName(%q, %q) = %q does not fit the model API's pattern", tt.server, tt.tool, got)
		}
	}
	// Long names that share their first 64 characters still differ.
	a, b := ToolName("s", long+"a"), ToolName("s", long+"b")
	if a == b || len(a) != MaxToolNameLen || len(b) != MaxToolNameLen {
		t.Errorf("long names: %q and %q", a, b)
	}
}

func TestAssignNamesCollisions(t *testing.T) {
	long := strings.Repeat("x", 70)
	refs := []toolRef{
		{"a_b", "run"},
		{"a.b", "run"},   // same sanitized name; "a.b" sorts first
		{"a b", "run"},   // and a third
		{"a_b", "run_2"}, // the plain name a suffix would want
		{"s", long},
		{"s", long + "!"}, // hashes differ, no collision
		{"z", "ok"},
	}
	want := map[toolRef]string{
		{"a.b", "run"}:    "mcp__a_b__run_3",
		{"a b", "run"}:    "mcp__a_b__run",
		{"a_b", "run"}:    "mcp__a_b__run_4",
		{"a_b", "run_2"}:  "mcp__a_b__run_2",
		{"s", long}:       ToolName("s", long),
		{"s", long + "!"}: ToolName("s", long+"!"),
		{"z", "ok"}:       "mcp__z__ok",
	}
	got := assignNames(refs)
	for r, w := range want {
		if got[r] != w {
			t.Errorf("%v: %q, want %q", r, got[r], w)
		}
	}
	// The result depends on the set, not the order.
	for range 20 {
		shuffled := append([]toolRef(nil), refs...)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again := assignNames(shuffled)
		for r := range want {
			if again[r] != got[r] {
				t.Fatalf("order changed %v's name: %q vs %q", r, again[r], got[r])
			}
		}
	}
	// Every name is unique and valid, also when suffixes must cut a long
	// name.
	var many []toolRef
	for _, srv := range []string{"x.y", "x_y", "x y", "x/y", "x:y", "x+y", "x=y", "x@y", "x#y", "x%y", "x^y"} {
		many = append(many, toolRef{srv, strings.Repeat("n", 55)})
	}
	seen := map[string]bool{}
	for r, n := range assignNames(many) {
		if seen[n] || !modelName.MatchString(n) {
			t.Errorf("%v: name %q duplicate or invalid", r, n)
		}
		seen[n] = true
	}
}

// Two servers whose names sanitize alike both keep their tools, and each
// name reaches its own server.
func TestCollidingServersRouteByTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		for _, name := range []string{"a.b", "a_b"} {
			srv := f.add(name, mcptest.NewServer(nil))
			srv.AddTool(mcptest.Tool{Name: "who"}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
				return mcptest.TextResult(name), nil
			})
			srv.AddTool(mcptest.Tool{Name: "w" + strings.Repeat("o", 70)}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
				return mcptest.TextResult("long " + name), nil
			})
		}
		m := NewServers([]*config.Server{pipeServer("a_b"), pipeServer("a.b")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		m.Start(t.Context())
		m.WaitSettled(t.Context())
		byName := map[string]ToolEntry{}
		for _, e := range m.Tools() {
			if _, dup := byName[e.Name]; dup || !modelName.MatchString(e.Name) {
				t.Errorf("name %q duplicate or invalid", e.Name)
			}
			byName[e.Name] = e
		}
		if len(byName) != 4 {
			t.Fatalf("tools: %v", toolNames(m.Tools()))
		}
		for name, e := range byName {
			res, err := m.CallTool(t.Context(), name, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := e.Server
			if strings.HasPrefix(e.Tool.Name, "wooo") {
				want = "long " + e.Server
			}
			if got := text(t, res); got != want {
				t.Errorf("%s answered %q, want %q", name, got, want)
			}
		}
		if e := byName["mcp__a_b__who"]; e.Server != "a.b" {
			t.Errorf("the plain name went to %q; servers sort by name, so a.b gets it", e.Server)
		}
		if e := byName["mcp__a_b__who_2"]; e.Server != "a_b" {
			t.Errorf("mcp__a_b__who_2 went to %q", e.Server)
		}
	})
}

// enabledTools and disabledTools hide tools from the table and refuse
// calls by the server's own name.
func TestToolFilters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("f", nil)
		def := pipeServer("f")
		def.EnabledTools = []string{"echo", "ad*"}
		def.DisabledTools = []string{"add-tool"}
		m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		m.Start(t.Context())
		got := toolNames(m.Tools())
		if strings.Join(got, ",") != "mcp__f__echo,mcp__f__add" && strings.Join(got, ",") != "mcp__f__add,mcp__f__echo" {
			t.Errorf("tools after filtering: %v", got)
		}
		if st, _ := m.Server("f"); st.ToolCount != 2 {
			t.Errorf("ToolCount %d", st.ToolCount)
		}
		_, err := m.CallServerTool(t.Context(), "f", "add-tool", map[string]any{"name": "x"}, nil)
		managerError(t, err, "f", ErrUnknownTool)
		_, err = m.CallTool(t.Context(), "mcp__f__slow", nil, nil)
		managerError(t, err, "", ErrUnknownTool)
		if _, err := m.CallServerTool(t.Context(), "f", "add", map[string]any{"a": 1, "b": 2}, nil); err != nil {
			t.Error(err)
		}
	})
}

func TestToolLookup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("x.y", nil)
		m := NewServers([]*config.Server{pipeServer("x.y")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		m.Start(t.Context())
		e, ok := m.Tool("mcp__x_y__echo")
		if !ok || e.Server != "x.y" || e.Tool.Name != "echo" || e.Name != "mcp__x_y__echo" {
			t.Errorf("Tool: %+v %v", e, ok)
		}
		if _, ok := m.Tool("mcp__x_y__nope"); ok {
			t.Error("found a tool that does not exist")
		}
	})
}
