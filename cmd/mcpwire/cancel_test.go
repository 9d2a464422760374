package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// wiredServer is a -- COMMAND that runs the example server behind tee,
// so the test reads what reached the server's stdin, and the file tee
// writes.
func wiredServer(t *testing.T, faults string) ([]string, string) {
	t.Helper()
	wire := filepath.Join(t.TempDir(), "stdin.jsonl")
	script := `tee "$1" | "$2" __serve-mcptest --faults "$3"`
	return []string{"--", "sh", "-c", script, "sh", wire, binary, faults}, wire
}

func wantCancelOnWire(t *testing.T, wire string) {
	t.Helper()
	b, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"method":"notifications/cancelled"`) {
		t.Errorf("no notifications/cancelled reached the server; its stdin was:\n%s", b)
	}
}

// A call that times out is cancelled on the wire before mcpwire exits:
// the exit closes the client, which flushes the queued cancel.
func TestTimeoutExitSendsCancel(t *testing.T) {
	target, wire := wiredServer(t, "never-answer:echo")
	args := append([]string{"call", "echo", "--arg", "message=x", "--tool-timeout", "300ms"}, target...)
	out, err := exec.CommandContext(t.Context(), binary, args...).CombinedOutput()
	if code := exitCode(t, err); code != 6 {
		t.Fatalf("exit %d, want 6\n%s", code, out)
	}
	wantCancelOnWire(t, wire)
}

// The same for Ctrl-C and SIGTERM in the middle of a call.
func TestSignalExitSendsCancel(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			target, wire := wiredServer(t, "")
			args := append([]string{"call", "slow", "--arg", "steps=100000", "--arg", "delay_ms=5"}, target...)
			cmd := exec.CommandContext(t.Context(), binary, args...)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the call is visibly in flight.
			sc := bufio.NewScanner(stderr)
			for sc.Scan() && !strings.HasPrefix(sc.Text(), "progress slow: 1/") {
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(stderr)
			if code := exitCode(t, cmd.Wait()); code != 130 {
				t.Fatalf("exit %d, want 130\n%s", code, rest)
			}
			wantCancelOnWire(t, wire)
		})
	}
}
