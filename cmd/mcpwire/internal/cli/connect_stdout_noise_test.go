package cli

import (
	"strings"
	"testing"
)

// A stdio server that writes a log line to stdout and then fails its
// handshake is told about the line without --verbose: it is the likely
// cause.
func TestConnectNamesStdoutNoise(t *testing.T) {
	t.Parallel()
	r := run(t, "tools", "--", "sh", "-c", "read line; echo 'Server v1 starting'; echo ready; exit 1")
	want := `hint: the server wrote 2 lines that are not JSON-RPC before it failed (the first starts "Server v1 starting")`
	if r.code != ExitConnect || !strings.Contains(r.err, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %d and %q", r.code, r.err, ExitConnect, want)
	}
}
