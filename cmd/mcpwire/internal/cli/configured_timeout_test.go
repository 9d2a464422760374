package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A configured server's "timeout" is, as hosts mean it, the deadline of
// every request, tool calls included, also beside a --timeout; and
// --tool-timeout overrides it for tool calls. The timeout also bounds the
// handshake of a re-executed test binary, so it is not shorter than 3s
// (1s was not always enough on a loaded machine).
func TestConfiguredTimeoutBoundsToolCalls(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, "timeout.json")
	srv, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}, "timeout": 3000})
	write(t, cfg, `{"mcpServers": {"short": `+string(srv)+`}}`)
	slow := []string{"call", "short/slow", "--arg", "steps=1", "--arg", "delay_ms=4000", "--config", cfg}
	r := run(t, append(slow, "--timeout", "20s")...).wantCode(t, ExitTimeout)
	if !strings.Contains(r.err, "timed out after 3s") || !strings.Contains(r.err, "raise --tool-timeout") {
		t.Errorf("stderr = %q", r.err)
	}
	r = run(t, append(slow, "--tool-timeout", "0")...).wantCode(t, 0)
	if !strings.Contains(r.out, "done after 1 steps") {
		t.Errorf("stdout = %q, stderr = %q", r.out, r.err)
	}
}
