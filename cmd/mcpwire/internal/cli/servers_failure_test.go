package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/manager"
)

// A server that fails shows as "failed" (not "retrying", whatever the
// moment), and its stderr as the lines it wrote, not joined with ⏎.
func TestServersFailureReadsAsLines(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "home", ".config"))
	t.Setenv(TrustProjectEnv, "1") // a project file; this test is not about trust
	write(t, filepath.Join(dir, "mcpwire.json"), `{"mcpServers": {"bad": {"command": "sh", "args": ["-c", "echo 'first problem' >&2; echo 'second problem' >&2; exit 1"]}}}`)
	r := runIO(t, t.Context(), &IOStreams{Width: 200}, "servers").wantCode(t, ExitConnect)
	if row := lines(r.out, "bad "); len(row) != 1 || !strings.Contains(row[0], " failed ") {
		t.Errorf("row %q", row)
	}
	if strings.Contains(r.out, "\u23ce") || !strings.Contains(r.out, "\n  | first problem\n  | second problem\n") {
		t.Errorf("stdout %q", r.out)
	}
}

func TestDefiniteState(t *testing.T) {
	failed := errors.New("exit 1")
	for _, c := range []struct {
		st   manager.ServerStatus
		want manager.State
	}{
		{manager.ServerStatus{State: manager.StateRetrying, Err: failed}, manager.StateFailed},
		{manager.ServerStatus{State: manager.StateReconnecting, Err: failed}, manager.StateFailed},
		{manager.ServerStatus{State: manager.StateFailed, Err: failed}, manager.StateFailed},
		{manager.ServerStatus{State: manager.StateConnected}, manager.StateConnected},
		{manager.ServerStatus{State: manager.StateReconnecting}, manager.StateReconnecting},
	} {
		if got := definiteState(c.st); got != c.want {
			t.Errorf("%s (err %v): %s, want %s", c.st.State, c.st.Err, got, c.want)
		}
	}
}
