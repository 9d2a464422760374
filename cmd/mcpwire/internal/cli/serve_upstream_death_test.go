//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// An upstream killed mid-run behind "mcpwire serve": its in-flight call
// fails naming it, the other upstream goes on, its cached tools stay
// listed, and the manager's supervision starts it again, so the host's
// next call to it succeeds (the gateway's manager holds a call made while
// the server reconnects until it is back).
func TestServeUpstreamKilledComesBack(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	pids := filepath.Join(t.TempDir(), "alpha.pids")
	// alpha is the example server behind a shell that writes its pid (exec
	// keeps the pid), so the test can kill the very process the gateway
	// started, and see that a new one replaced it.
	alpha, _ := json.Marshal(map[string]any{"command": "/bin/sh",
		"args": []string{"-c", `echo $$ >> "$0"; exec "$1" "$2"`, pids, os.Args[0], ServeName}})
	beta, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}})
	cfg := filepath.Join(t.TempDir(), "servers.json")
	write(t, cfg, `{"mcpServers": {"alpha": `+string(alpha)+`, "beta": `+string(beta)+`}}`)
	c := gatewayClient(t, &mcp.ClientOptions{ProtocolVersion: "2025-11-25"}, "--config", cfg)
	ctx := t.Context()

	names := toolNames(t, c)
	if !slices.Contains(names, "alpha__echo") || !slices.Contains(names, "beta__echo") {
		t.Fatalf("tools/list: %v", names)
	}
	first := alphaPids(t, pids)
	if len(first) != 1 {
		t.Fatalf("alpha started %d times before the kill: %v", len(first), first)
	}

	// Kill alpha once its slow call is under way (its first progress).
	killed := make(chan error, 1)
	res, err := c.CallTool(ctx, "alpha__slow", map[string]any{"steps": 100000, "delay_ms": 10},
		&mcp.CallOptions{OnProgress: func(context.Context, mcp.ProgressNotification) {
			select {
			case killed <- syscall.Kill(first[0], syscall.SIGKILL):
			default: // killed already
			}
		}})
	if kerr := <-killed; kerr != nil {
		t.Fatalf("kill alpha: %v", kerr)
	}
	switch {
	case err != nil && !strings.Contains(err.Error(), "alpha"):
		t.Fatalf("the in-flight call's error does not name the server: %v", err)
	case err == nil && (!res.IsError || !strings.Contains(textOf(res), `"alpha"`)):
		t.Fatalf("the in-flight call to the killed server: %+v", res)
	}

	if res, err := c.CallTool(ctx, "beta__echo", map[string]any{"message": "still here"}, nil); err != nil || textOf(res) != "still here" {
		t.Fatalf("beta__echo after alpha died: %v %+v", err, res)
	}
	if names := toolNames(t, c); !slices.Contains(names, "alpha__echo") {
		t.Fatalf("alpha's cached tools left the list: %v", names)
	}

	// Back: the call waits for the reconnect, then runs on a new process.
	res, err = c.CallTool(ctx, "alpha__echo", map[string]any{"message": "back"}, nil)
	if err != nil || textOf(res) != "back" {
		t.Fatalf("alpha__echo after the reconnect: %v %+v", err, res)
	}
	if now := alphaPids(t, pids); len(now) < 2 || now[len(now)-1] == first[0] {
		t.Fatalf("alpha was not started again: %v", now)
	}
}

// alphaPids reads the pids the wrapper wrote, one a line.
func alphaPids(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %q is not a pid", path, f)
		}
		pids = append(pids, pid)
	}
	return pids
}
