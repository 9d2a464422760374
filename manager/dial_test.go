package manager

import (
	"bytes"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

func TestDefaultDialMapsTypes(t *testing.T) {
	var stderr bytes.Buffer
	cmd, err := DefaultDial(&config.Server{Type: config.TypeStdio, Command: "srv", Args: []string{"-x"},
		Env: map[string]string{"K": "v"}, InheritEnv: true}, "/project", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := cmd.(*transport.Command)
	if !ok || c.Command != "srv" || c.Args[0] != "-x" || c.Env["K"] != "v" || !c.InheritEnv || c.Dir != "/project" || c.Stderr != &stderr {
		t.Errorf("stdio: %#v", cmd)
	}
	cmd, _ = DefaultDial(&config.Server{Type: config.TypeStdio, Command: "srv", Cwd: "/elsewhere"}, "/project", nil)
	if c := cmd.(*transport.Command); c.Dir != "/elsewhere" || c.Stderr != nil {
		t.Errorf("the config's cwd must win: %#v", c)
	}
	headers := map[string]string{"Authorization": "Bearer x"}
	for typ, check := range map[string]func(transport.Transport) bool{
		config.TypeHTTP: func(tr transport.Transport) bool {
			h, ok := tr.(*transport.StreamableHTTP)
			return ok && h.URL == "http://127.0.0.1/mcp" && h.Headers.Get("Authorization") == "Bearer x"
		},
		config.TypeSSE: func(tr transport.Transport) bool {
			h, ok := tr.(*transport.SSE)
			return ok && h.URL == "http://127.0.0.1/mcp" && h.Headers.Get("Authorization") == "Bearer x"
		},
		config.TypeAuto: func(tr transport.Transport) bool {
			h, ok := tr.(*transport.Auto)
			return ok && h.URL == "http://127.0.0.1/mcp" && h.Headers.Get("Authorization") == "Bearer x"
		},
	} {
		tr, err := DefaultDial(&config.Server{Type: typ, URL: "http://127.0.0.1/mcp", Headers: headers}, "", nil)
		if err != nil || !check(tr) {
			t.Errorf("%s: %#v, %v", typ, tr, err)
		}
	}
	if _, err := DefaultDial(&config.Server{Type: "carrier-pigeon"}, "", nil); err == nil {
		t.Error("an unknown type was accepted")
	}
}
