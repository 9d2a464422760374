package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

// binary is the mcpwire binary built once for the whole package: these
// tests run the real program, signals and all.
var binary string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcpwire-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "mcpwire")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mcpwire:", err)
		return 1
	}
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			return 1
		}
	}
	return code
}

// exitCode is the exit status of a finished command, or fails the test.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("running mcpwire: %v", err)
	}
	return ee.ExitCode()
}

// The demo must work on a fresh clone with nothing but Go: the real
// binary starts itself as the example server.
func TestDemoEndToEnd(t *testing.T) {
	cmd := exec.CommandContext(t.Context(), binary, "demo")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if code := exitCode(t, cmd.Run()); code != 0 {
		t.Fatalf("demo exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		"Server:        mcptest 1.0.0",
		"== Its tools",
		"slow        (steps?: integer, delay_ms?: integer)  Waits delay_ms per step",
		"Hello from mcpwire!\n",
		"done after 5 steps\n",
		"structured content:\n{\n  \"sum\": 5\n}\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	// Every command the demo shows runs as printed (the binary is not
	// on $PATH here, so it names the binary's path).
	for _, line := range strings.Split(stdout.String(), "\n") {
		command, ok := strings.CutPrefix(line, "$ ")
		if !ok {
			continue
		}
		if !strings.HasPrefix(command, binary+" ") {
			t.Errorf("the demo shows %q, not a command of %s", command, binary)
		}
		out, err := exec.CommandContext(t.Context(), "sh", "-c", command).CombinedOutput()
		if code := exitCode(t, err); code != 0 {
			t.Errorf("%s: exit %d\n%s", command, code, out)
		}
	}
	// stderr is a pipe here, so progress comes as plain lines.
	for i := 1; i <= 5; i++ {
		want := fmt.Sprintf("progress slow: %d/5 (%d%%) step %d of 5\n", i, i*20, i)
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// Ctrl-C in the middle of a call: the real SIGINT reaches main's
// signal.NotifyContext, the call returns, the child is closed, and the
// exit status is 130.
func TestInterruptExits130(t *testing.T) {
	cmd := exec.CommandContext(t.Context(), binary, "call", "slow", "--arg", "steps=100000", "--arg", "delay_ms=5",
		"--", binary, "__serve-mcptest")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the call is visibly in flight, then interrupt.
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.HasPrefix(sc.Text(), "progress slow: 1/") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	code := exitCode(t, cmd.Wait())
	if code != 130 {
		t.Fatalf("exit %d, want 130\nstderr:\n%s\n%s", code, strings.Join(seen, "\n"), rest)
	}
	if !strings.HasSuffix(string(rest), "mcpwire: interrupted\n") {
		t.Errorf("stderr ends %q", rest)
	}
}

func TestVersionAndUsageExitCodes(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), binary, "version").Output()
	if exitCode(t, err) != 0 || !strings.HasPrefix(string(out), "mcpwire ") {
		t.Errorf("version: %q, %v", out, err)
	}
	if code := exitCode(t, exec.CommandContext(t.Context(), binary, "bogus").Run()); code != 2 {
		t.Errorf("unknown command exited %d, want 2", code)
	}
}
