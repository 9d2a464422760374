//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangBound is how long a test waits for an exit that must come at once
// (or after the 2 s a session gives the requests in flight) before it
// calls it a hang: a failure path only.
const hangBound = 30 * time.Second

// `mcpwire serve --stdio` whose host stops reading its stdout in the
// middle of a reply (a result larger than the pipe holds) still exits on
// SIGTERM, and when its stdin ends.
func TestServeStdioExitsWhileItsStdoutIsNotRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(cmd *exec.Cmd, stdin io.Closer) error
		code int
	}{
		{"SIGTERM", func(cmd *exec.Cmd, _ io.Closer) error { return cmd.Process.Signal(syscall.SIGTERM) }, 130},
		{"stdin ends", func(_ *exec.Cmd, stdin io.Closer) error { return stdin.Close() }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), binary, "serve", "--stdio", "--", binary, "__serve-mcptest")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			send := func(line string) {
				t.Helper()
				if _, err := io.WriteString(stdin, line+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			br := bufio.NewReader(stdout)
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
				t.Fatalf("initialize: %q, %v", line, err)
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"large","arguments":{"bytes":4194304}}}`)
			// The start of the result: the gateway is in the middle of
			// writing a line it cannot finish, and nobody reads on.
			if _, err := io.ReadFull(br, make([]byte, 4096)); err != nil {
				t.Fatalf("reading the start of the large result: %v", err)
			}
			go func() { exited <- cmd.Wait() }()
			if err := tc.stop(cmd, stdin); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				if code := exitCode(t, err); code != tc.code {
					t.Errorf("exit %d, want %d\nstderr:\n%s", code, tc.code, stderr.String())
				}
			case <-time.After(hangBound):
				_ = cmd.Process.Kill()
				<-exited
				t.Fatalf("mcpwire serve --stdio still runs %v after it was stopped, blocked writing to a host that does not read\nstderr:\n%s", hangBound, stderr.String())
			}
		})
	}
}
