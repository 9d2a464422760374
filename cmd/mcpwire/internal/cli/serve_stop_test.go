//go:build unix

package cli

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// SIGTERM stops serve with exit 0 over stdio as over HTTP (--stdio
// exited 130 "interrupted", --listen 0): stopping a server is how its run
// ends.
func TestServeStopsWithExit0OnSIGTERM(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, mode := range [][]string{{"--stdio"}, {"--listen", "127.0.0.1:0", "--no-auth"}} {
		t.Run(mode[0], func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append(append([]string{"serve"}, mode...), "--", os.Args[0], ServeName)...)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Serving: over stdio, it answers a ping; over HTTP, it says where.
			if mode[0] == "--stdio" {
				if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
					t.Fatal(err)
				}
				if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
					t.Fatalf("no answer to the ping: %q %v", line, err)
				}
			} else {
				lines := bufio.NewScanner(stderr)
				for lines.Scan() && !strings.HasPrefix(lines.Text(), "mcpwire: serving at ") {
				}
			}
			said := make(chan string, 1)
			go func() {
				b, _ := io.ReadAll(stderr)
				said <- string(b)
			}()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			out := <-said
			if err != nil {
				t.Errorf("exit after SIGTERM: %v (stderr %q)", err, out)
			}
			if strings.Contains(out, "interrupted") {
				t.Errorf("a stop reads as an interruption: %q", out)
			}
		})
	}
}
