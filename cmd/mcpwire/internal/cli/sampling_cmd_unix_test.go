//go:build unix

package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// --sampling-cmd is a shell line, and a pipeline's processes are the
// shell's children. When the call ends first (Ctrl-C, a deadline), all of
// them end: before, only the shell was killed, and what it had started
// ran on (a model's CLI, a sleep) after mcpwire was gone.
func TestSamplingCmdEndsWhatItStarted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hold := filepath.Join(dir, "hold")
	if err := syscall.Mkfifo(hold, 0o600); err != nil {
		t.Fatal(err)
	}
	// The grandchild holds the FIFO open for writing while it lives; its
	// other streams are closed, so that only the FIFO tells of it.
	pidFile := filepath.Join(dir, "pid")
	command := `sleep 3600 >"` + hold + `" 2>/dev/null </dev/null & echo $! >"` + pidFile + `"; wait`
	t.Cleanup(func() {
		// Should the test fail, the sleep is not left behind.
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := runSamplingCmd(ctx, command, &mcp.CreateMessageRequest{MaxTokens: 1})
		done <- err
	}()
	// Opening the FIFO for reading returns once the grandchild opened it.
	f, err := os.Open(hold)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cancel()
	if err := <-done; err == nil {
		t.Error("runSamplingCmd succeeded after its context ended")
	}
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, f) // EOF once the grandchild died
		close(gone)
	}()
	select {
	case <-gone:
	case <-time.After(time.Minute):
		// Without its group killed, it would sleep for an hour.
		t.Fatal("the process the command started still runs after the call ended")
	}
}
