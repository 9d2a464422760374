//go:build unix

package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Timeouts for the shutdown tests: only which step ended the child
// matters. A step the child must not reach gets shortTimeout; a step the
// child is expected to finish gets longTimeout, since a race-instrumented
// child may take a second to exit.
const (
	shortTimeout = 100 * time.Millisecond
	longTimeout  = time.Minute
)

// childCommand returns a Command that re-executes this test binary in mode.
func childCommand(t *testing.T, mode string) *Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Command{Command: exe, Env: map[string]string{childModeEnv: mode}}
}

func connect(t *testing.T, c *Command) *stdioStream {
	t.Helper()
	s, err := c.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*stdioStream)
}

func call(t *testing.T, s jsonrpc.Stream, id int64, method string, params string) *jsonrpc.Response {
	t.Helper()
	ctx := context.Background()
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: json.RawMessage(params)}
	if err := s.Write(ctx, req); err != nil {
		t.Fatalf("write %s: %v", method, err)
	}
	m, err := s.Read(ctx)
	if err != nil {
		t.Fatalf("read answer to %s: %v", method, err)
	}
	resp, ok := m.(*jsonrpc.Response)
	if !ok || resp.ID != req.ID {
		t.Fatalf("answer to %s: %#v", method, m)
	}
	return resp
}

// expectNotification reads one message and checks it is method.
func expectNotification(t *testing.T, s jsonrpc.Stream, method string) *jsonrpc.Notification {
	t.Helper()
	m, err := s.Read(context.Background())
	if err != nil {
		t.Fatalf("waiting for %s: %v", method, err)
	}
	n, ok := m.(*jsonrpc.Notification)
	if !ok || n.Method != method {
		t.Fatalf("want notification %s, got %#v", method, m)
	}
	return n
}

func readExitError(t *testing.T, s jsonrpc.Stream) *ExitError {
	t.Helper()
	_, err := s.Read(context.Background())
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("Read: %v, want an *ExitError", err)
	}
	if jsonrpc.IsDecodeError(err) {
		t.Fatalf("exit reported as a decode error: %v", err)
	}
	if _, err2 := s.Read(context.Background()); !errors.Is(err2, err) && err2.Error() != err.Error() {
		t.Fatalf("second Read: %v, want the same terminal error", err2)
	}
	return ee
}

func signalOf(t *testing.T, p *process) syscall.Signal {
	t.Helper()
	<-p.exited
	ws := p.state.Sys().(syscall.WaitStatus)
	if !ws.Signaled() {
		return 0
	}
	return ws.Signal()
}

func TestStdioRoundTripAndGracefulClose(t *testing.T) {
	c := childCommand(t, childEcho)
	c.CloseTimeout = longTimeout
	s := connect(t, c)
	for i, params := range []string{`{"a":1}`, `[1,"two"]`, `{"text":"ünïcödé \u2028 and \\n"}`} {
		resp := call(t, s, int64(i), "echo", params)
		if string(resp.Result) != params {
			t.Fatalf("echo %d = %s, want %s", i, resp.Result, params)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if sig := signalOf(t, s.proc); sig != 0 || s.proc.state.ExitCode() != 0 {
		t.Fatalf("child ended by signal %v, code %d; want a clean exit on stdin EOF", sig, s.proc.state.ExitCode())
	}
	if _, err := s.Read(context.Background()); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Read after Close: %v", err)
	}
	if err := s.Write(context.Background(), &jsonrpc.Notification{Method: "x"}); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Write after Close: %v", err)
	}
}

func TestStdio64MiBMessagesBothWays(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 128 MiB through a child process")
	}
	s := connect(t, childCommand(t, childWrapEcho))
	ctx := context.Background()
	params := `{"blob":"` + strings.Repeat("x", 64<<20) + `"}`
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "big", Params: json.RawMessage(params)}
	if err := s.Write(ctx, req); err != nil {
		t.Fatal(err)
	}
	m, err := s.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The child wraps the request line it got in a response.
	want, _ := jsonrpc.EncodeMessage(req)
	if resp, ok := m.(*jsonrpc.Response); !ok || !bytes.Equal(resp.Result, want) {
		t.Fatalf("got %T back, not the %d-byte request wrapped in a response", m, len(want))
	}
	want, _ = jsonrpc.EncodeMessage(&jsonrpc.Notification{Method: "after"})
	if err := s.Write(ctx, &jsonrpc.Notification{Method: "after"}); err != nil {
		t.Fatal(err)
	}
	if m, err := s.Read(ctx); err != nil || !bytes.Equal(m.(*jsonrpc.Response).Result, want) {
		t.Fatalf("after the big message: %v", err)
	}
}

func TestStdioMaxMessageSizeSkipsAndContinues(t *testing.T) {
	c := childCommand(t, childEcho)
	c.MaxMessageSize = 1024
	s := connect(t, c)
	ctx := context.Background()
	big := `{"pad":"` + strings.Repeat("p", 4096) + `"}`
	if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "echo", Params: json.RawMessage(big)}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Read(ctx)
	if !jsonrpc.IsDecodeError(err) || !strings.Contains(err.Error(), "1024 bytes") {
		t.Fatalf("oversized answer: %v, want a decode error naming the 1024-byte limit", err)
	}
	if resp := call(t, s, 2, "echo", `{"small":1}`); string(resp.Result) != `{"small":1}` {
		t.Fatalf("after the oversized answer: %s", resp.Result)
	}
}

// stderrWatcher is a tee that reports each floodMarker line as it arrives
// and counts the bytes.
type stderrWatcher struct {
	w       *io.PipeWriter
	markers chan struct{}
	done    chan struct{}
	total   int64
	last    string
}

func newStderrWatcher() *stderrWatcher {
	pr, pw := io.Pipe()
	sw := &stderrWatcher{w: pw, markers: make(chan struct{}, 16), done: make(chan struct{})}
	go func() {
		defer close(sw.done)
		br := bufio.NewReader(pr)
		for {
			line, err := br.ReadString('\n')
			sw.total += int64(len(line))
			if strings.TrimSpace(line) == floodMarker {
				sw.markers <- struct{}{}
			}
			if line != "" {
				sw.last = line
			}
			if err != nil {
				return
			}
		}
	}()
	return sw
}

func (sw *stderrWatcher) Write(p []byte) (int, error) { return sw.w.Write(p) }

// finish ends the watcher and waits for it.
func (sw *stderrWatcher) finish() {
	sw.w.Close()
	<-sw.done
}

func TestStdioStderrFloodIsDrainedTeedAndTailKept(t *testing.T) {
	c := childCommand(t, childFloodStderr)
	c.CloseTimeout = longTimeout // bounds the wait for the exit status
	tee := newStderrWatcher()
	c.Stderr = tee
	s := connect(t, c)

	// Each answer comes only after the child wrote 4 MiB to stderr: it
	// would never come if stderr were not drained.
	for i := range 2 {
		if resp := call(t, s, int64(i), "work", `{"i":1}`); string(resp.Result) != `{"i":1}` {
			t.Fatalf("answer %d: %s", i, resp.Result)
		}
		// The tee sees the marker while the child is still alive.
		<-tee.markers
		if s.proc.hasExited() {
			t.Fatal("child exited early")
		}
	}
	if err := s.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(9), Method: "exit"}); err != nil {
		t.Fatal(err)
	}
	ee := readExitError(t, s)
	if ee.ExitCode != 3 || ee.Signal != "" {
		t.Fatalf("exit = %+v, want code 3", ee)
	}
	if !strings.HasSuffix(ee.StderrTail, "final words before exit 3") || !strings.Contains(ee.StderrTail, floodMarker) {
		t.Fatalf("tail does not end with the last stderr lines:\n%s", ee.StderrTail)
	}
	if len(ee.StderrTail) > tailMaxBytes+8 {
		t.Fatalf("tail is %d bytes, want about %d at most", len(ee.StderrTail), tailMaxBytes)
	}
	s.Close()
	tee.finish()
	// The child writes whole chunks until it passed floodBytes.
	chunk := int64(len("log line of a chatty server ......\n") * 1024)
	perRequest := (int64(floodBytes)+chunk-1)/chunk*chunk + int64(len(floodMarker)+1)
	wantTotal := 3*perRequest + int64(len("final words before exit 3\n"))
	if tee.total != wantTotal {
		t.Fatalf("tee got %d bytes, want %d", tee.total, wantTotal)
	}
}

func TestStdioExitStatusInReadError(t *testing.T) {
	c := childCommand(t, childExit3)
	c.CloseTimeout = longTimeout // bounds the wait for the exit status
	c.Args = []string{"--token=arg-secret"}
	c.Env["API_KEY"] = "env-secret-value"
	s := connect(t, c)
	ee := readExitError(t, s)
	if ee.ExitCode != 3 || ee.Signal != "" || ee.Running {
		t.Fatalf("exit = %+v, want code 3", ee)
	}
	if ee.StderrTail != "starting up\nfatal: config file missing" {
		t.Fatalf("tail = %q", ee.StderrTail)
	}
	msg := ee.Error()
	for _, want := range []string{"status 3", "fatal: config file missing", c.Command} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
	for _, secret := range []string{"arg-secret", "env-secret-value"} {
		if strings.Contains(msg, secret) {
			t.Errorf("error %q leaks %q", msg, secret)
		}
	}
}

// A server whose responses are not valid JSON-RPC (no "jsonrpc" member):
// each call fails at once with what is wrong, rather than waiting for its
// deadline while the engine only reports the frame it skipped.
func TestStdioInvalidResponseFailsTheCall(t *testing.T) {
	s := connect(t, childCommand(t, childSloppy))
	conn := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer conn.Close()
	for range 2 {
		// The timeout only bounds a failing test.
		_, err := conn.Call(context.Background(), "tools/list", nil, &jsonrpc.CallOptions{Timeout: longTimeout})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeParseError {
			t.Fatalf("Call = %v, want a parse error", err)
		}
		if !strings.Contains(err.Error(), `missing "jsonrpc" member`) || !strings.Contains(err.Error(), "tools/list") {
			t.Fatalf("Call = %v, want the method and what is wrong", err)
		}
	}
}

// A server that echoes a configured secret on stdout and stderr before it
// exits must not carry it into the decode error of its log line or the
// exit error: Env's values never appear in errors.
func TestStdioExitErrorHidesEnvValues(t *testing.T) {
	c := childCommand(t, childBadKey)
	c.CloseTimeout = longTimeout // bounds the wait for the exit status
	c.Env["API_KEY"] = "sk-env-secret-value"
	s := connect(t, c)
	// The log line on stdout is a bad frame, whose decode error quotes it.
	_, err := s.Read(context.Background())
	if d := new(jsonrpc.DecodeError); !errors.As(err, &d) || strings.Contains(d.Excerpt+d.Reason, "sk-env-secret-value") || !strings.Contains(d.Excerpt, "[redacted]") {
		t.Fatalf("Read = %v, want a decode error without the secret", err)
	}
	ee := readExitError(t, s)
	if ee.ExitCode != 2 {
		t.Fatalf("exit = %+v, want code 2", ee)
	}
	if want := "upstream refused API key [redacted]\nbye"; ee.StderrTail != want {
		t.Fatalf("tail = %q, want %q", ee.StderrTail, want)
	}
	// A write after the exit names the exit too, with the same tail.
	err = s.Write(context.Background(), &jsonrpc.Notification{Method: "late"})
	if err == nil || strings.Contains(err.Error(), "sk-env-secret-value") {
		t.Fatalf("write after exit: %v, want an error without the secret", err)
	}
}

func TestStdioKilledBySignalInReadError(t *testing.T) {
	c := childCommand(t, childKillSelf)
	c.CloseTimeout = longTimeout // bounds the wait for the exit status
	s := connect(t, c)
	ee := readExitError(t, s)
	if ee.Signal != syscall.SIGKILL.String() || ee.ExitCode != -1 {
		t.Fatalf("exit = %+v, want killed by SIGKILL", ee)
	}
	if !strings.Contains(ee.Error(), "killed") || !strings.Contains(ee.Error(), "about to die") {
		t.Fatalf("error %q", ee.Error())
	}
}

func TestStdioStdoutClosedWhileRunning(t *testing.T) {
	c := childCommand(t, childCloseStdout)
	c.CloseTimeout = shortTimeout
	s := connect(t, c)
	ee := readExitError(t, s)
	if !ee.Running || ee.ExitCode != -1 || !strings.Contains(ee.Error(), "still running") {
		t.Fatalf("exit = %+v (%v), want a running child", ee, ee)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !s.proc.hasExited() {
		t.Fatal("child not reaped after Close")
	}
}

func childEnvironment(t *testing.T, c *Command) map[string]string {
	t.Helper()
	s := connect(t, c)
	n := expectNotification(t, s, "env")
	var list []string
	if err := json.Unmarshal(n.Params, &list); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range list {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env
}

func TestStdioEnvAllowList(t *testing.T) {
	t.Setenv("MCPWIRE_SECRET_TOKEN", "hunter2")
	t.Setenv("LC_MCPWIRE_TEST", "lc-value")
	t.Setenv("https_proxy", "http://proxy.invalid:3128")
	t.Setenv("HOME", "/parent-home")
	c := childCommand(t, childPrintEnv)
	c.Env["CONFIGURED"] = "yes"
	c.Env["HOME"] = "/configured-home"

	env := childEnvironment(t, c)
	if _, ok := env["MCPWIRE_SECRET_TOKEN"]; ok {
		t.Error("a variable outside the allow-list reached the child")
	}
	want := map[string]string{
		"LC_MCPWIRE_TEST": "lc-value",
		"https_proxy":     "http://proxy.invalid:3128",
		"CONFIGURED":      "yes",
		"HOME":            "/configured-home",
		"PATH":            os.Getenv("PATH"),
		childModeEnv:      childPrintEnv,
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("child's %s = %q, want %q", k, env[k], v)
		}
	}
	for k := range env {
		if !envAllowed(k) && c.Env[k] == "" {
			t.Errorf("child got %s, which is neither allowed nor configured", k)
		}
	}

	c.InheritEnv = true
	env = childEnvironment(t, c)
	if env["MCPWIRE_SECRET_TOKEN"] != "hunter2" {
		t.Error("InheritEnv did not pass the whole environment")
	}
	if env["HOME"] != "/configured-home" {
		t.Errorf("with InheritEnv, HOME = %q; configured env must win", env["HOME"])
	}
}

func TestStdioConnectErrors(t *testing.T) {
	dir := t.TempDir()
	notExec := dir + "/not-executable"
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		cmd     Command
		wantIs  error
		mention string
	}{
		{"not in PATH", Command{Command: "mcpwire-no-such-server"}, exec.ErrNotFound, `"mcpwire-no-such-server" not found`},
		{"empty PATH", Command{Command: "sh", Env: map[string]string{"PATH": ""}}, exec.ErrNotFound, "PATH is empty"},
		{"missing relative path", Command{Command: "./nope", Dir: dir}, exec.ErrNotFound, `"./nope": no such file`},
		{"missing absolute path", Command{Command: dir + "/nope"}, exec.ErrNotFound, `/nope": no such file`},
		{"not executable", Command{Command: notExec}, os.ErrPermission, "not-executable"},
		{"a directory", Command{Command: dir}, nil, "is a directory"},
		{"empty command", Command{}, nil, "command is empty"},
		{"bad env name", Command{Command: "sh", Env: map[string]string{"A=B": "x"}}, nil, `"A=B"`},
		{"negative size", Command{Command: "sh", MaxMessageSize: -1}, nil, "MaxMessageSize"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cmd.Env = mapWith(tc.cmd.Env, "SECRET_TOKEN", "do-not-print-me")
			s, err := tc.cmd.Connect(context.Background())
			if err == nil {
				s.Close()
				t.Fatal("Connect succeeded")
			}
			if s != nil {
				t.Fatalf("Connect returned a stream with its error: %#v", s)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("err = %v, want errors.Is %v", err, tc.wantIs)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("err = %q, want it to mention %q", err, tc.mention)
			}
			if strings.Contains(err.Error(), "$PATH") {
				t.Errorf("err = %q: no $PATH was searched", err)
			}
			if strings.Contains(err.Error(), "do-not-print-me") {
				t.Errorf("err %q leaks an env value", err)
			}
		})
	}
}

func mapWith(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for mk, mv := range m {
		out[mk] = mv
	}
	return out
}

func TestStdioConnectContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := childCommand(t, childEcho).Connect(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Connect with a cancelled ctx: %v", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	s, err := childCommand(t, childEcho).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cancel()
	// The child outlives the Connect ctx.
	if resp := call(t, s, 1, "echo", `{"alive":true}`); string(resp.Result) != `{"alive":true}` {
		t.Fatalf("after cancelling Connect's ctx: %s", resp.Result)
	}
	if s.(*stdioStream).proc.hasExited() {
		t.Fatal("child exited")
	}
}

func TestStdioCloseSendsSIGTERM(t *testing.T) {
	c := childCommand(t, childHang)
	c.CloseTimeout, c.KillTimeout = shortTimeout, longTimeout
	s := connect(t, c)
	expectNotification(t, s, readyMethod)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if sig := signalOf(t, s.proc); sig != syscall.SIGTERM {
		t.Fatalf("child ended by %v, want SIGTERM", sig)
	}
}

func TestStdioCloseEscalatesToSIGKILL(t *testing.T) {
	c := childCommand(t, childIgnoreTerm)
	c.CloseTimeout, c.KillTimeout = shortTimeout, shortTimeout
	s := connect(t, c)
	expectNotification(t, s, readyMethod) // SIGTERM is ignored from here on
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if sig := signalOf(t, s.proc); sig != syscall.SIGKILL {
		t.Fatalf("child ended by %v, want SIGKILL", sig)
	}
}

func TestStdioCloseConcurrentAndIdempotent(t *testing.T) {
	s := connect(t, childCommand(t, childEcho))
	ctx := context.Background()
	var wg sync.WaitGroup
	readErr := make(chan error, 1)
	wg.Go(func() {
		_, err := s.Read(ctx)
		readErr <- err
	})
	for i := range 4 {
		wg.Go(func() {
			// Writes racing with Close either go through or fail with
			// ErrClosed; they never hang.
			err := s.Write(ctx, &jsonrpc.Notification{Method: fmt.Sprint("n", i)})
			if err != nil && !errors.Is(err, jsonrpc.ErrClosed) {
				t.Errorf("Write: %v", err)
			}
		})
	}
	closeErrs := make(chan error, 4)
	for range 4 {
		wg.Go(func() { closeErrs <- s.Close() })
	}
	wg.Wait()
	for range 4 {
		if err := <-closeErrs; err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if err := <-readErr; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Read during Close: %v", err)
	}
	if !s.proc.hasExited() {
		t.Fatal("child not reaped after Close")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStdioWriteHonoursContextWhenPipeFull(t *testing.T) {
	c := childCommand(t, childReadOne) // reads one byte of stdin, then stops
	c.CloseTimeout, c.KillTimeout = shortTimeout, longTimeout
	s := connect(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	big := json.RawMessage(`{"pad":"` + strings.Repeat("p", 8<<20) + `"}`)
	done := make(chan error)
	go func() { done <- s.Write(ctx, &jsonrpc.Notification{Method: "big", Params: big}) }()
	// The child got the first byte of the line, so the write is under
	// way, and it cannot finish: 8 MiB do not fit in the pipe.
	expectNotification(t, s, "started")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Write: %v, want context.Canceled", err)
	}
	// The line stays in flight, whole: a later write waits behind it and
	// honours its own ctx too, and the stream is not torn down.
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan error)
	go func() { done2 <- s.Write(ctx2, &jsonrpc.Notification{Method: "later"}) }()
	cancel2()
	if err := <-done2; !errors.Is(err, context.Canceled) {
		t.Fatalf("Write queued behind the abandoned one: %v, want context.Canceled", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if sig := signalOf(t, s.proc); sig != syscall.SIGTERM {
		t.Fatalf("child ended by %v, want SIGTERM", sig)
	}
}

func TestStderrTail(t *testing.T) {
	var b bytes.Buffer
	for i := range 100 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	tail := stderrTail(b.Bytes())
	if !strings.HasPrefix(tail, "…\nline 80\n") || !strings.HasSuffix(tail, "line 99") {
		t.Fatalf("tail = %q", tail)
	}
	long := bytes.Repeat([]byte("x"), 5000)
	tail = stderrTail(append(append([]byte("a\n"), long...), "\nend\n\n"...))
	if len(tail) > tailMaxBytes+8 || !strings.HasSuffix(tail, "\nend") {
		t.Fatalf("tail of a long line: %d bytes, ends %q", len(tail), tail[len(tail)-10:])
	}
	if got := stderrTail([]byte("bad \xff utf8\n")); got != "bad \uFFFD utf8" {
		t.Fatalf("tail = %q", got)
	}
	if got := stderrTail(nil); got != "" {
		t.Fatalf("empty tail = %q", got)
	}
	// One long line of three-byte characters, cut by size wherever a
	// character's bytes fall: the tail starts on a character, not with
	// a replacement for the cut one's end.
	for pad := range 3 {
		text := strings.Repeat("x", pad) + strings.Repeat("語", 1000)
		tail := stderrTail([]byte(text))
		if strings.ContainsRune(tail, utf8.RuneError) || !strings.HasPrefix(tail, "…\n語") {
			t.Errorf("pad %d: tail starts %q", pad, tail[:min(len(tail), 12)])
		}
	}
}

func TestStderrLogRing(t *testing.T) {
	var all []byte
	l := &stderrLog{size: 10}
	for i, chunk := range []string{"abc", "defgh", "ij", "klmnopq", "r", "0123456789ABC", "xy"} {
		l.keep([]byte(chunk))
		all = append(all, chunk...)
		want := all
		if len(want) > 10 {
			want = want[len(want)-10:]
		}
		if got := l.bytes(); string(got) != string(want) {
			t.Fatalf("after chunk %d: %q, want %q", i, got, want)
		}
	}
}

func TestChildEnv(t *testing.T) {
	parent := []string{"PATH=/bin", "SECRET=x", "LC_ALL=C", "LCX=no", "=weird", "noequals", "HOME=/h"}
	env, err := childEnv(parent, false, map[string]string{"HOME": "/c", "NEW": "v=w"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"HOME=/c", "LC_ALL=C", "NEW=v=w", "PATH=/bin"}; strings.Join(env, " ") != strings.Join(want, " ") {
		t.Fatalf("env = %q, want %q", env, want)
	}
	env, _ = childEnv(parent, true, nil)
	if envValue(env, "SECRET") != "x" || envValue(env, "LCX") != "no" {
		t.Fatalf("inherit: %q", env)
	}
	_, err = childEnv(nil, false, map[string]string{"K": "nul\x00value-secret"})
	if err == nil || !strings.Contains(err.Error(), "K") || strings.Contains(err.Error(), "value-secret") {
		t.Fatalf("NUL value: %v", err)
	}
}
