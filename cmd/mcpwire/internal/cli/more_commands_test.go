package cli

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// request sends any method; a JSON-RPC error is exit 5 like the others.
func TestRequest(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("request", "tools/call", "--params", `{"name": "echo", "arguments": {"message": "raw"}}`), server())...).wantCode(t, 0)
	var res struct {
		Content []struct{ Text string }
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != "raw" {
		t.Errorf("stdout %q (%v)", r.out, err)
	}
	r = run(t, args(a("request", "tools/call", "--params", `{"name": "nope"}`), server())...).wantCode(t, ExitProtocol)
	if !strings.Contains(r.err, "-32602") {
		t.Errorf("stderr %q", r.err)
	}
	run(t, args(a("request", "tools/list", "--params", `[1]`), server())...).wantCode(t, ExitUsage)
}

func TestComplete(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("complete", "--prompt", "summarize", "style=b"), server())...).wantCode(t, 0)
	if r.out != "brief\nbullet-points\n" {
		t.Errorf("stdout %q", r.out)
	}
	r = run(t, args(a("complete", "--resource", "mcptest://item/{id}", "id"), server())...).wantCode(t, 0)
	if r.out != "1\n2\n3\n" {
		t.Errorf("stdout %q", r.out)
	}
	run(t, args(a("complete", "style"), server())...).wantCode(t, ExitUsage)
}

func TestLogLevel(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "log", "--arg", "level=info", "--arg", "message=hello", "--log-level", "info"), server())...).wantCode(t, 0)
	if !strings.Contains(r.err, "server log [info] mcptest: hello") {
		t.Errorf("stderr %q", r.err)
	}
	r = run(t, args(a("call", "log", "--arg", "level=info", "--arg", "message=hello", "--log-level", "error"), server())...).wantCode(t, 0)
	if strings.Contains(r.err, "hello") {
		t.Errorf("an info message passed --log-level error: %q", r.err)
	}
	r = run(t, args(a("ping", "--log-level", "loud"), server())...).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "--log-level must be one of") {
		t.Errorf("stderr %q", r.err)
	}
}

// signalWriter records what is written and closes seen once marker shows.
type signalWriter struct {
	syncBuffer
	marker string
	seen   chan struct{}
	once   sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	n, err := w.syncBuffer.Write(p)
	if strings.Contains(w.syncBuffer.String(), w.marker) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

// watch prints what the server sends until Ctrl-C: here a resource update
// caused by another client, as a JSON line.
func TestWatch(t *testing.T) {
	t.Parallel()
	hs := httpServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ready := &signalWriter{marker: "Ctrl-C to stop", seen: make(chan struct{})}
	out := &cancelOnWrite{marker: "notifications/resources/updated", cancel: cancel}
	done := make(chan result, 1)
	go func() {
		done <- runIO(t, ctx, &IOStreams{Out: out, ErrOut: ready}, "watch", "--subscribe", "mcptest://static/hello.txt", "--json", hs.URL)
	}()
	select {
	case <-ready.seen:
	case r := <-done:
		t.Fatalf("watch ended early: exit %d, stderr %q", r.code, ready.String())
	}
	run(t, "call", "touch", "--arg", "uri=mcptest://static/hello.txt", hs.URL).wantCode(t, 0)
	r := <-done
	if r.code != ExitInterrupted {
		t.Errorf("exit %d, want %d", r.code, ExitInterrupted)
	}
	var line struct {
		Method string
		Params struct{ URI string }
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if err := json.Unmarshal([]byte(first), &line); err != nil || line.Method != "notifications/resources/updated" || line.Params.URI != "mcptest://static/hello.txt" {
		t.Errorf("stdout %q (%v)", out.String(), err)
	}
}
