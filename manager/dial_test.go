package manager

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

// The mapping itself is tested in transport (FromServer); this checks
// what DialWith adds: the directory and the per-server stderr.
func TestDialWithPassesDirAndStderr(t *testing.T) {
	var stderr bytes.Buffer
	var asked string
	dial := DialWith("/project", func(server string) io.Writer { asked = server; return &stderr })
	tr, err := dial(context.Background(), &config.Server{Name: "s", Type: config.TypeStdio, Command: "srv", InheritEnv: true})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := tr.(*transport.Command)
	if !ok || c.Dir != "/project" || c.Stderr != &stderr || !c.InheritEnv || asked != "s" {
		t.Errorf("stdio: %#v (stderr asked for %q)", tr, asked)
	}
	tr, err = DialWith("", nil)(context.Background(), &config.Server{Type: config.TypeAuto, URL: "http://127.0.0.1/mcp"})
	if _, ok := tr.(*transport.Auto); err != nil || !ok {
		t.Errorf("auto: %#v, %v", tr, err)
	}
	if _, err := DialWith("", nil)(context.Background(), &config.Server{Type: "carrier-pigeon"}); err == nil {
		t.Error("an unknown type was accepted")
	}
}
