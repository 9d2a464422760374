package server

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// child is the default server running as a real child process (this test
// binary re-executed through RunIfChild).
type child struct {
	*wireClient
	cmd     *exec.Cmd
	stderr  *syncBuffer
	waitErr error
	waited  bool
}

func startChild(t *testing.T, extraEnv map[string]string, faults ...string) *child {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	spec := ChildCommand(faults...)
	for k, v := range extraEnv {
		spec.Env[k] = v
	}
	cmd := spec.Command(ctx)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	ch := &child{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = ch.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch.wireClient = newWireClient(t, stdout, stdin)
	t.Cleanup(func() {
		_ = stdin.Close()
		cancel() // kills the child if it did not exit on stdin's end
		ch.wait()
	})
	return ch
}

// wait reads stdout to its end (exec wants that before Wait) and reaps
// the child.
func (c *child) wait() error {
	if !c.waited {
		c.drain()
		c.waitErr = c.cmd.Wait()
		c.waited = true
	}
	return c.waitErr
}

// exit closes the child's stdin and returns its exit status.
func (c *child) exit(t *testing.T) int {
	t.Helper()
	_ = c.w.Close()
	err := c.wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	return 0
}

func TestChildServesTheDefaultServer(t *testing.T) {
	c := startChild(t, map[string]string{EnvPageSize: "5"})
	c.initialize("2025-06-18")
	if tools, pages := listAll(t, c.wireClient, "tools/list", "tools", "name"); len(tools) != 12 || pages != 3 {
		t.Errorf("tools: %d in %d pages", len(tools), pages)
	}
	if r := c.toolCall("echo", map[string]string{"message": "from a child"}); r.text() != "from a child" {
		t.Errorf("echo %+v", r)
	}
	c.answer = func(req *jsonrpc.Request) (any, error) {
		if req.Method != "roots/list" {
			return nil, jsonrpc.ErrMethodNotFound
		}
		return map[string]any{"roots": []map[string]string{{"uri": "file:///child"}}}, nil
	}
	if r := c.toolCall("roots", nil); !strings.Contains(r.text(), "file:///child") {
		t.Errorf("roots %+v", r)
	}
	raw := c.call("tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 2, "delay_ms": 1}, "_meta": map[string]int{"progressToken": 7}})
	if r := decodeToolResult(t, raw); r.text() != "done after 2 steps" || len(c.notes) != 2 {
		t.Errorf("slow %+v, notes %v", r, methodsOf(c.notes))
	}
	if r := c.toolCall("large", map[string]int{"bytes": 1 << 20}); len(r.text()) != 1<<20 {
		t.Errorf("large: %d bytes", len(r.text()))
	}
	if code := c.exit(t); code != 0 {
		t.Errorf("exit status %d after stdin closed; stderr: %s", code, c.stderr.String())
	}
	if !strings.Contains(c.stderr.String(), "mcptest: serving the default server") {
		t.Errorf("stderr %q", c.stderr.String())
	}
}

func TestChildCrash(t *testing.T) {
	c := startChild(t, nil, "crash:echo")
	c.initialize(LatestProtocolVersion)
	c.request("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "x"}})
	if line, ok := c.nextLine(); ok {
		t.Errorf("the crashing child wrote %q", line)
	}
	if code := c.exit(t); code != CrashExitCode {
		t.Errorf("exit status %d, want %d", code, CrashExitCode)
	}
	if !strings.Contains(c.stderr.String(), "mcptest: crashing on purpose") {
		t.Errorf("stderr %q", c.stderr.String())
	}
}

func TestChildFaultsOnTheWire(t *testing.T) {
	c := startChild(t, nil, "malformed-line:echo", "unknown-id:add", "duplicate-response:ping", "never-answer:fail", "huge-notification:log=1MiB", "flood-stderr:roots=5MiB")
	c.initialize(LatestProtocolVersion)

	id := c.request("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "m"}})
	if line, _ := c.nextLine(); strings.HasPrefix(line, `{"jsonrpc"`) {
		t.Errorf("malformed-line: got %q", line)
	}
	c.await(id)

	id = c.request("tools/call", map[string]any{"name": "add", "arguments": map[string]int{"a": 1, "b": 2}})
	if line, _ := c.nextLine(); !strings.Contains(line, `"id":"mcptest-unknown-id"`) {
		t.Errorf("unknown-id: got %q", line)
	}
	c.await(id)

	id = c.request("ping", nil)
	first, _ := c.nextLine()
	second, _ := c.nextLine()
	if first != second || !strings.Contains(first, `"id":`+id.String()) {
		t.Errorf("duplicate-response: %q, %q", first, second)
	}

	silent := c.request("tools/call", map[string]any{"name": "fail"})

	c.toolCall("log", map[string]string{"message": "m"})
	// The tool's own log message, then the huge one just before the response.
	if len(c.notes) != 2 || len(c.notes[1].Params) < 1<<20 {
		t.Errorf("huge-notification: %v", methodsOf(c.notes))
	}

	before := c.stderr.Len()
	c.answer = func(*jsonrpc.Request) (any, error) { return map[string]any{"roots": []any{}}, nil }
	c.toolCall("roots", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if grown := c.stderr.waitLen(ctx, before+5<<20) - before; grown < 5<<20 {
		t.Errorf("flood-stderr: stderr grew by %d bytes", grown)
	}

	_ = c.w.Close()
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		if r, isResp := m.(*jsonrpc.Response); isResp && r.ID == silent {
			t.Errorf("never-answer: got %#v", r)
		}
	}
	if code := c.exit(t); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestChildRejectsBadConfiguration(t *testing.T) {
	for _, tc := range []struct {
		env    map[string]string
		faults []string
		want   string
	}{
		{faults: []string{"explode"}, want: `unknown kind "explode"`},
		{env: map[string]string{EnvPageSize: "-1"}, want: EnvPageSize},
		{env: map[string]string{EnvEras: "future"}, want: EnvEras},
	} {
		c := startChild(t, tc.env, tc.faults...)
		if line, ok := c.nextLine(); ok {
			t.Errorf("misconfigured child wrote %q", line)
		}
		if code := c.exit(t); code != 2 {
			t.Errorf("exit status %d, want 2", code)
		}
		if !strings.Contains(c.stderr.String(), tc.want) {
			t.Errorf("stderr %q does not mention %q", c.stderr.String(), tc.want)
		}
	}
}
