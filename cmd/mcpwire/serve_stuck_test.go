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

// servedHost is a host's end of `mcpwire serve --stdio` over the
// built-in example server, initialized.
type servedHost struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Closer // the pipe out reads
	out    *bufio.Reader
	stderr *bytes.Buffer
}

// send writes one line to the gateway.
func (h *servedHost) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.stdin, line+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// startServeStdio starts the gateway and makes the initialize exchange.
// The caller waits for the process (stdin is closed at cleanup).
func startServeStdio(t *testing.T) *servedHost {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), binary, "serve", "--stdio", "--", binary, "__serve-mcptest")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdin.Close() })
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &servedHost{t: t, cmd: cmd, stdin: stdin, stdout: stdout, out: bufio.NewReader(stdout), stderr: &bytes.Buffer{}}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if line, err := h.out.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize: %q, %v\nstderr:\n%s", line, err, h.stderr.String())
	}
	return h
}

// `mcpwire serve --stdio` whose host stops reading its stdout in the
// middle of a reply (a result larger than the pipe holds) still exits on
// SIGTERM, and when its stdin ends.
func TestServeStdioExitsWhileItsStdoutIsNotRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(cmd *exec.Cmd, stdin io.Closer) error
		code int
	}{
		{"SIGTERM", func(cmd *exec.Cmd, _ io.Closer) error { return cmd.Process.Signal(syscall.SIGTERM) }, 0}, // a stop ends a serve run: docs/serve.md
		{"stdin ends", func(_ *exec.Cmd, stdin io.Closer) error { return stdin.Close() }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startServeStdio(t)
			cmd, stdin, br, stderr, send := h.cmd, h.stdin, h.out, h.stderr, h.send
			exited := make(chan error, 1)
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

// A host that closes its end of the gateway's stdout while its stdin
// stays open ends `mcpwire serve --stdio` at the next reply, with an
// error that says why: before it wrote through a stdout of its own (which
// SIGPIPE does not kill), it died of SIGPIPE there; it must not run on.
func TestServeStdioEndsWhenTheHostStopsReading(t *testing.T) {
	h := startServeStdio(t)
	if err := h.stdout.Close(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- h.cmd.Wait() }()
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	h.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	select {
	case err := <-exited:
		if code := exitCode(t, err); code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if !strings.Contains(h.stderr.String(), "the host closed its end of standard output") {
			t.Errorf("stderr does not say why:\n%s", h.stderr.String())
		}
	case <-time.After(hangBound):
		_ = h.cmd.Process.Kill()
		<-exited
		t.Fatalf("mcpwire serve --stdio still runs %v after its host closed its stdout", hangBound)
	}
}
