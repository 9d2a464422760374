package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

const runMain = "MCPTEST_SERVER_TEST_RUN_MAIN"

// TestMain lets the tests run this program's main by re-executing the
// test binary.
func TestMain(m *testing.M) {
	if os.Getenv(runMain) == "1" {
		os.Args = append([]string{"mcptest-server"}, strings.Fields(os.Getenv(runMain+"_ARGS"))...)
		main()
		return
	}
	goleak.VerifyTestMain(m)
}

func run(t *testing.T, args, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), os.Args[0])
	cmd.Env = append(os.Environ(), runMain+"=1", runMain+"_ARGS="+args)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func TestServesWithFlags(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`
	out, stderr, code := run(t, "-page-size 1 -protocol-version 2025-03-26 -faults duplicate-response:tools/list", in)
	// Requests are answered concurrently, so the replies may come in any
	// order; they are told apart by id.
	byID := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		_, rest, _ := strings.Cut(line, `"id":`)
		id, _, _ := strings.Cut(rest, ",")
		byID[id] = append(byID[id], line)
	}
	if code != 0 || len(byID["1"]) != 1 || len(byID["2"]) != 2 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if !strings.Contains(byID["1"][0], `"protocolVersion":"2025-03-26"`) {
		t.Errorf("-protocol-version ignored: %s", byID["1"][0])
	}
	list := byID["2"]
	if list[0] != list[1] || !strings.Contains(list[0], `"nextCursor"`) || strings.Count(list[0], `"name"`) != 1 {
		t.Errorf("-faults or -page-size ignored: %s / %s", list[0], list[1])
	}
}

func TestRejectsBadFlags(t *testing.T) {
	for args, want := range map[string]string{
		"-faults explode": `unknown kind "explode"`,
		"-page-size -3":   "-page-size must be >= 0",
		"extra":           `unexpected argument "extra"`,
		"-eras future":    `eras "future"`,
	} {
		out, stderr, code := run(t, args, "")
		if code != 2 || out != "" || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, stderr, want)
		}
	}
}
