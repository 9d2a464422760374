package cli

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/sse"
)

// "Copy as mcpwire command" of a server started with --env runs as it
// is: each variable comes from the environment of the shell that runs it
// (the page never holds the value), so run by a shell whose environment
// has them, the command reaches the server with them, and its tool
// echoes them. The value inspect was given is in no copied command.
func TestInspectCopiedCommandKeepsEnv(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no POSIX shell here")
	}
	const given = "inspect-was-given-this"
	c, base := startInspect(t, "--env", "SECRET_A="+given, "--env", "SECRET_B="+given, "--", os.Args[0], secretsServerName)
	var servers []struct{ Name string }
	getJSON(t, c, base+"/api/servers", &servers)
	cmd := copiedCommand(t, c, base, servers[0].Name, "env")
	if strings.Contains(cmd, given) || !strings.Contains(cmd, `--env "SECRET_A=$SECRET_A" --env "SECRET_B=$SECRET_B" -- `) {
		t.Fatalf("copied command: %s", cmd)
	}
	// "mcpwire" is this test binary, entering Run as cmd/mcpwire's main
	// does. The values are short: mcpwire masks no value under 6 bytes,
	// so the tool's answer shows what reached the server.
	run := exec.Command(sh, "-c", `mcpwire() { "$MCPWIRE_TEST_BINARY" "$@"; }; `+cmd)
	run.Env = append(os.Environ(), runAsMcpwire+"=1", "MCPWIRE_TEST_BINARY="+os.Args[0], "SECRET_A=abc", "SECRET_B=xyz")
	out, err := run.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "abc" {
		t.Fatalf("the copied command %s: %v\n%s", cmd, err, out)
	}
}

// copiedCommand calls tool on server from the page and returns the call's
// "Copy as mcpwire command".
func copiedCommand(t *testing.T, c *http.Client, base, server, tool string) string {
	t.Helper()
	resp, err := c.Get(base + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := sse.NewReader(bufio.NewReader(resp.Body))
	name, _ := json.Marshal(server)
	pageRequest(t, c, base, http.MethodPost, "/api/call", `{"server":`+string(name)+`,"tool":"`+tool+`","arguments":{}}`)
	for {
		e, err := events.Next()
		if err != nil {
			t.Fatal(err)
		}
		var rec struct{ State, Command, Error string }
		if e.Type != "call" || json.Unmarshal(e.Data, &rec) != nil || rec.State == "running" {
			continue
		}
		if rec.State != "done" {
			t.Fatalf("the call on %s: %s", url.QueryEscape(server), e.Data)
		}
		return rec.Command
	}
}
