package gateway

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

func entries(pairs ...string) []manager.ToolEntry {
	var out []manager.ToolEntry
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, manager.ToolEntry{Server: pairs[i], Tool: mcp.Tool{Name: pairs[i+1]}})
	}
	return out
}

func names(list []named[manager.ToolEntry]) string {
	var s []string
	for _, n := range list {
		s = append(s, n.name+"->"+n.route.server+"/"+n.route.tool)
	}
	return strings.Join(s, " ")
}

func TestMergeNames(t *testing.T) {
	in := entries("beta", "echo", "alpha", "echo", "my files", "read")
	for _, tc := range []struct {
		n    namer
		want string
	}{
		{namer{sep: "__"}, "alpha__echo->alpha/echo beta__echo->beta/echo my_files__read->my files/read"},
		{namer{sep: ".", prefixes: map[string]string{"beta": "b", "my files": ""}}, "alpha.echo->alpha/echo b.echo->beta/echo read->my files/read"},
	} {
		got, errs := tc.n.merge(in, nil)
		if len(errs) > 0 || names(got) != tc.want {
			t.Errorf("%+v: %s %v, want %s", tc.n, names(got), errs, tc.want)
		}
	}
}

func TestMergeCollisions(t *testing.T) {
	got, errs := namer{noPrefix: true}.merge(entries("beta", "echo", "alpha", "echo", "gamma", "echo", "alpha", "add"), nil)
	if names(got) != "add->alpha/add echo->alpha/echo" {
		t.Errorf("kept %s", names(got))
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `tool name "echo" is both server "alpha"'s tool "echo" and server "beta"'s tool "echo": left out server "beta"'s tool "echo" (server "alpha" sorts first;`) ||
		!strings.Contains(errs[1].Error(), `server "gamma"'s tool "echo"`) {
		t.Errorf("errors: %v", errs)
	}
	// After start, the server listed before keeps the name.
	got, errs = namer{noPrefix: true}.merge(entries("beta", "echo", "alpha", "echo"), map[string]route{"echo": {"beta", "echo"}})
	if names(got) != "echo->beta/echo" || len(errs) != 1 || !strings.Contains(errs[0].Error(), `both server "beta"'s tool "echo" and server "alpha"'s tool "echo": left out server "alpha"'s tool "echo" (server "beta"'s was listed under it before;`) {
		t.Errorf("with beta listed before: kept %s, errors %v", names(got), errs)
	}
}
