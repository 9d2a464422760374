// Package serverproc builds the canned server once and runs it: as the
// command a stdio client spawns, or as one Streamable HTTP process on
// loopback shared by the HTTP clients. The server always runs in its own
// process, so its CPU time and allocations never count as the client's.
package serverproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Build compiles cmd/cannedserver into dir and returns the binary's path.
// It runs from the bench module's directory (found from this source file's
// package path via `go list`).
func Build(ctx context.Context, dir string) (string, error) {
	return buildCommand(ctx, dir, "cannedserver", "the canned server")
}

// BuildRelay compiles cmd/linerelay, the gateway workload's floor, into
// dir and returns the binary's path.
func BuildRelay(ctx context.Context, dir string) (string, error) {
	return buildCommand(ctx, dir, "linerelay", "the line relay")
}

// buildCommand compiles the bench module's cmd/NAME into dir/NAME.
func buildCommand(ctx context.Context, dir, name, what string) (string, error) {
	bin := filepath.Join(dir, name)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/mcpwire/mcpwire/bench/cmd/"+name)
	cmd.Dir = ModuleDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %w\n%s", what, err, out)
	}
	return bin, nil
}

// BuildMCPWire compiles the mcpwire command into dir and returns the
// binary's path, for the gateway workload (mcpwire serve). It builds in the
// root module, whose go.sum holds the command's own requirements (its
// terminal libraries), which the bench module does not need.
func BuildMCPWire(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "mcpwire")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/mcpwire")
	cmd.Dir = filepath.Join(ModuleDir(), "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the mcpwire command: %w\n%s", err, out)
	}
	return bin, nil
}

// ModuleDir is the bench module's root: the working directory when it is
// inside the module (go test, go run from bench/), found by walking up to
// its go.mod.
func ModuleDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := wd; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/mcpwire/mcpwire/bench") {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}

// HTTPServer is a running canned HTTP server.
type HTTPServer struct {
	URL   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// ModernArgs are the arguments that make the canned server serve the
// stateless 2026-07-28 revision only, over stdio or HTTP.
var ModernArgs = []string{"-era", "modern"}

// StartHTTP starts bin serving Streamable HTTP on a free loopback port,
// answering with SSE streams when sse is set, in the stateless era only
// when modern is set.
func StartHTTP(bin string, sse, modern bool) (*HTTPServer, error) {
	args := []string{"-http", "127.0.0.1:0"}
	if sse {
		args = append(args, "-sse")
	}
	if modern {
		args = append(args, ModernArgs...)
	}
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		got <- strings.TrimSpace(line)
		io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-got:
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			stdin.Close()
			cmd.Wait()
			return nil, fmt.Errorf("the canned HTTP server said %q instead of its URL", url)
		}
		return &HTTPServer{URL: url, cmd: cmd, stdin: stdin}, nil
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, errors.New("the canned HTTP server did not report its address within 10s")
	}
}

// Stop ends the server and waits for it.
func (s *HTTPServer) Stop() error {
	s.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		return <-done
	}
}
