//go:build unix

package interop

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// StartEverythingHTTP runs server-everything in an HTTP mode ("streamableHttp"
// or "sse") on a free loopback port and returns its base URL once it says it
// is listening. The server is stopped when the test ends.
func StartEverythingHTTP(t testing.TB, mode string) string {
	t.Helper()
	command, args := ServerEverything(t, mode)
	port := freePort(t)
	cmd := exec.Command(command, args...)
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting server-everything %s: %v", mode, err)
	}
	exited := make(chan struct{})
	ready := make(chan struct{})
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(out)
		said := false
		for sc.Scan() {
			line := sc.Text()
			if !said && (strings.Contains(line, "listening on port") || strings.Contains(line, "running on port")) {
				said = true
				close(ready)
			}
		}
		io.Copy(io.Discard, out)
		cmd.Wait()
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("server-everything %s exited before listening", mode)
	case <-time.After(30 * time.Second):
		t.Fatalf("server-everything %s did not say it was listening within 30s", mode)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", port)
}

// freePort asks the kernel for a free loopback port. The server binds it a
// moment later; on a busy machine another process could take it first,
// which shows up as a clear start-up failure rather than a wrong result.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
