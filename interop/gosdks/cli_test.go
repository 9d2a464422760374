package gosdks_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildCLI builds the mcpwire command of the repository this module
// replaces in, so the test runs the CLI as a user does. It builds in the
// root module, whose go.sum holds the command's own requirements (its
// terminal libraries), which this module does not need.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpwire")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mcpwire")
	build.Dir = filepath.Join("..", "..")
	out, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("go build mcpwire: %v\n%s", err, out)
	}
	return bin
}

// cliTargets are the CLI's spellings of some of the servers above: a
// stdio command (the test binary re-executed, told by its argument which
// server to be) or a URL served by this test.
func cliTargets(t *testing.T) []struct {
	name string
	args []string
} {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		args []string
	}{
		{"go-sdk/stdio", []string{"--", exe, serverArg + "go-sdk"}},
		{"go-sdk/http-stateless", []string{urlOf(t, goSDKHTTP(nil, true))}},
		{"mcp-go/stdio", []string{"--", exe, serverArg + "mcp-go"}},
		{"mcp-go/http", []string{urlOf(t, mcpGoHTTP(nil, false))}},
	}
}

// runCLI runs the mcpwire command and returns its stdout, failing the test
// with both streams when it exits non-zero.
func runCLI(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcpwire %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String()
}

// TestCLICall calls a tool of other SDKs' servers from the command line,
// with the default protocol and pinned to each era.
func TestCLICall(t *testing.T) {
	bin := buildCLI(t)
	for _, tg := range cliTargets(t) {
		for _, pin := range pins {
			t.Run(tg.name+"/"+pin.name, func(t *testing.T) {
				t.Parallel()
				args := []string{"call", toolEcho, "--arg", "text=hi"}
				if pin.version != "" {
					args = append(args, "--protocol", pin.version)
				}
				out := runCLI(t, bin, append(args, tg.args...)...)
				if strings.TrimSpace(out) != "echo: hi" {
					t.Errorf("stdout %q, want %q", out, "echo: hi")
				}
			})
		}
	}
}

// TestCLIElicitDefaults answers the go-sdk server's MRTR tool from the
// command line: --elicit defaults accepts the form with its schema's
// defaults (ok=true). Over stateless HTTP in the modern era the server has
// no other way to ask than an input-required result, so that case is MRTR
// end to end; the others show the same flag answering each era's way.
func TestCLIElicitDefaults(t *testing.T) {
	bin := buildCLI(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
	}{
		{"go-sdk/http-stateless/modern-2026-07-28", []string{"--protocol", modernVersion, urlOf(t, goSDKHTTP(nil, true))}},
		{"go-sdk/stdio/modern-2026-07-28", []string{"--protocol", modernVersion, "--", exe, serverArg + "go-sdk"}},
		{"go-sdk/stdio/legacy-2025-11-25", []string{"--protocol", "2025-11-25", "--", exe, serverArg + "go-sdk"}},
		{"go-sdk/stdio/default", []string{"--", exe, serverArg + "go-sdk"}},
		{"go-sdk-modern-only/stdio/default", []string{"--", exe, serverArg + "go-sdk-modern"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := runCLI(t, bin, append([]string{"call", toolConfirm, "--elicit", "defaults"}, tc.args...)...)
			if strings.TrimSpace(out) != "accept ok=true" {
				t.Errorf("stdout %q, want %q (the form accepted with its default)", out, "accept ok=true")
			}
		})
	}
}
