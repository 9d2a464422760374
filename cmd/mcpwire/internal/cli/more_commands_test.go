package cli

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
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

// floodOut stands for a slow terminal: its first line of the flood
// blocks until release.
type floodOut struct {
	syncBuffer
	entered, release chan struct{}
	held             sync.Once
	mu               sync.Mutex
	more             chan struct{} // closed by the next write
}

func (w *floodOut) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "flood") {
		w.held.Do(func() {
			close(w.entered)
			<-w.release
		})
	}
	n, err := w.syncBuffer.Write(p)
	w.mu.Lock()
	if w.more != nil {
		close(w.more)
		w.more = nil
	}
	w.mu.Unlock()
	return n, err
}

// changed returns a channel closed by the next write.
func (w *floodOut) changed() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.more == nil {
		w.more = make(chan struct{})
	}
	return w.more
}

// A server that floods log messages while watch shows them on a slow
// terminal: the client drops the oldest, says how many on stderr, and
// every message is shown or counted.
func TestWatchFloodNotice(t *testing.T) {
	t.Parallel()
	const flood = 3000
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &floodOut{entered: make(chan struct{}), release: make(chan struct{})}
	errOut := &signalWriter{marker: "Ctrl-C to stop", seen: make(chan struct{})}
	done := make(chan result, 1)
	go func() {
		done <- runIO(t, ctx, &IOStreams{Out: out, ErrOut: errOut}, args(
			a("watch", "--subscribe", "mcptest://static/hello.txt", "--protocol", "2025-11-25"),
			server("flood-notifications:resources/subscribe="+strconv.Itoa(flood)))...)
	}()
	<-out.entered
	// The flood comes before the answer to resources/subscribe: once
	// watch says it is watching, the whole flood was read.
	select {
	case <-errOut.seen:
	case r := <-done:
		t.Fatalf("watch ended early: exit %d, stderr %q", r.code, errOut.String())
	}
	close(out.release)
	notice := regexp.MustCompile(`mcpwire: warning: .+ sent notifications faster than they could be handled; (\d+) dropped`)
	var m []string
	for m == nil {
		// The notice comes before the next line is shown, so the flood's
		// last line (kept: the newest are) comes after it.
		more := out.changed()
		if strings.Contains(out.String(), `"flood `+strconv.Itoa(flood)+`"`) {
			m = notice.FindStringSubmatch(errOut.String())
			break
		}
		select {
		case <-more:
		case r := <-done:
			t.Fatalf("watch ended: exit %d, stderr %q", r.code, errOut.String())
		}
	}
	cancel()
	if r := <-done; r.code != ExitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", r.code, ExitInterrupted, errOut.String())
	}
	if m == nil {
		t.Fatalf("no notice of dropped notifications on stderr:\n%.2000s", errOut.String())
	}
	dropped, _ := strconv.Atoi(m[1])
	shown := strings.Count(out.String(), "notifications/message")
	if dropped == 0 || shown+dropped != flood {
		t.Errorf("%d log lines shown + %d dropped, want %d", shown, dropped, flood)
	}
}
