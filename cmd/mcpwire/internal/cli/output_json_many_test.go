package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// Over several configured servers, every --json output is one JSON
// document: each entry names its server, as "mcpwire tools --json" does.
// The server that fails is a warning on stderr and exit 3; the document
// holds the others.
func TestJSONOverConfiguredServersIsOneDocument(t *testing.T) {
	project(t)
	type entry map[string]json.RawMessage
	for _, c := range []struct {
		command string
		lists   map[string]string // the document's lists, and each entry's member
		want    string            // in every entry's member
	}{
		{"resources", map[string]string{"resources": "resource", "resourceTemplates": "resourceTemplate"}, `"name":"`},
		{"prompts", map[string]string{"prompts": "prompt"}, `"name":"`},
		{"info", map[string]string{"servers": "info"}, `"serverInfo":{"name":"mcptest"`},
		{"ping", map[string]string{"servers": "ping"}, `"ok":true`},
	} {
		r := run(t, c.command, "--json").wantCode(t, ExitConnect)
		var doc map[string][]entry
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Errorf("%s --json: not one JSON document (%v):\n%s", c.command, err, r.out)
			continue
		}
		if len(doc) != len(c.lists) {
			t.Errorf("%s --json: members %v, want %v", c.command, doc, c.lists)
		}
		for list, member := range c.lists {
			servers := map[string]bool{}
			for _, e := range doc[list] {
				var server string
				json.Unmarshal(e["server"], &server)
				servers[server] = true
				compact, _ := json.Marshal(e[member])
				if !strings.Contains(string(compact), c.want) {
					t.Errorf("%s --json: %s entry %s lacks %s", c.command, list, compact, c.want)
				}
			}
			if !servers["alpha"] || !servers["beta"] || len(servers) != 2 {
				t.Errorf("%s --json: %s names servers %v, want alpha and beta", c.command, list, servers)
			}
		}
		if !strings.Contains(r.err, `server "broken"`) {
			t.Errorf("%s --json: the failed server is not named: %q", c.command, r.err)
		}
	}
}
