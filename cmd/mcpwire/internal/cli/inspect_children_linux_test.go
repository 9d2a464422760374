package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/internal/sse"
)

// Ctrl-C (SIGINT to the real process) ends inspect with exit 130, and no
// server it started outlives it.
func TestInspectInterruptLeavesNoChildren(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	mark := "MCPWIRE_TEST_UPSTREAM_MARK=" + filepath.Base(t.TempDir())
	k, v, _ := strings.Cut(mark, "=")
	entry, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}, "env": map[string]string{k: v}})
	cfg := filepath.Join(t.TempDir(), "servers.json")
	write(t, cfg, `{"mcpServers": {"alpha": `+string(entry)+`, "beta": `+string(entry)+`}}`)

	cmd := exec.CommandContext(t.Context(), os.Args[0], "inspect", "--no-open", "--config", cfg)
	cmd.Env = append(os.Environ(), runAsMcpwire+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut syncBuffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	page := ""
	lines := bufio.NewScanner(out)
	for page == "" && lines.Scan() {
		if f := strings.Fields(lines.Text()); len(f) > 0 && strings.HasPrefix(f[len(f)-1], "http://127.0.0.1:") {
			page = f[len(f)-1]
		}
	}
	if page == "" {
		_ = cmd.Wait()
		t.Fatalf("inspect printed no URL: %s", errOut.String())
	}
	go func() { // keep the pipe drained
		for lines.Scan() {
		}
	}()
	c, base := pageClient(t, page)
	events, err := c.Get(base + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	changes := sse.NewReader(bufio.NewReader(events.Body))
	for connected := 0; connected < 2; {
		var servers []struct{ Name, State string }
		getJSON(t, c, base+"/api/servers", &servers)
		connected = 0
		for _, s := range servers {
			if s.State == "connected" {
				connected++
			}
		}
		for connected < 2 { // until the page hears of a change
			e, err := changes.Next()
			if err != nil {
				t.Fatalf("waiting for both servers: %v (last seen %+v)", err, servers)
			}
			if e.Type == "servers" {
				break
			}
		}
	}
	if n := markedProcesses(t, mark); n != 2 {
		t.Fatalf("%d servers running under inspect, want 2", n)
	}

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitInterrupted {
		t.Errorf("inspect after SIGINT: %v, want exit %d; stderr: %s", err, ExitInterrupted, errOut.String())
	}
	if n := markedProcesses(t, mark); n != 0 {
		t.Errorf("%d servers outlive inspect", n)
	}
}
