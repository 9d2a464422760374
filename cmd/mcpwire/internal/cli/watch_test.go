package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// notifyingBuffer is a buffer whose readers can wait for a text to appear
// in it (no polling: each write wakes them).
type notifyingBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newNotifyingBuffer() *notifyingBuffer {
	return &notifyingBuffer{changed: make(chan struct{})}
}

func (n *notifyingBuffer) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.b.Write(p)
	close(n.changed)
	n.changed = make(chan struct{})
	return len(p), nil
}

func (n *notifyingBuffer) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.b.String()
}

// waitFor waits until text is in n, failing the test when done (the
// command's result) comes first.
func (n *notifyingBuffer) waitFor(t *testing.T, text string, done <-chan result) {
	t.Helper()
	n.waitForCount(t, text, 1, done)
}

// waitForCount waits until text is in n count times.
func (n *notifyingBuffer) waitForCount(t *testing.T, text string, count int, done <-chan result) {
	t.Helper()
	for {
		n.mu.Lock()
		has, changed := strings.Count(n.b.String(), text) >= count, n.changed
		n.mu.Unlock()
		if has {
			return
		}
		select {
		case <-changed:
		case r := <-done:
			t.Fatalf("the command ended before %q: exit %d\nstdout %q\nstderr %q", text, r.code, r.out, r.err)
		}
	}
}

// watch over Streamable HTTP notices that the server went away, though
// nothing was in flight: exit 3 and a line that says so.
func TestWatchNoticesHTTPServerDied(t *testing.T) {
	t.Parallel()
	hs := httpServer(t)
	errOut := newNotifyingBuffer()
	done := make(chan result, 1)
	go func() {
		done <- runIO(t, t.Context(), &IOStreams{ErrOut: errOut}, "watch", hs.URL)
	}()
	errOut.waitFor(t, "Ctrl-C to stop", done)
	hs.Close()
	r := <-done
	if r.code != ExitConnect || !strings.Contains(errOut.String(), "mcpwire: cannot connect to "+hs.URL+": the server stopped answering") {
		t.Errorf("exit %d, stderr %q; want %d and the server's end", r.code, errOut.String(), ExitConnect)
	}
}

// watch without a server watches every configured one at once: each
// server's notifications come, named; one that goes away is reported
// while the other is still watched; exit 3 once none is left.
func TestWatchEveryConfiguredServer(t *testing.T) {
	a, b := httpServer(t), httpServer(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "home", ".config"))
	t.Setenv(TrustProjectEnv, "1") // a project file; this test is not about trust
	write(t, filepath.Join(dir, "mcpwire.json"), `{"servers": {"a": {"url": "`+a.URL+`"}, "b": {"url": "`+b.URL+`"}}}`)
	const uri = "mcptest://static/hello.txt"
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, errOut := newNotifyingBuffer(), newNotifyingBuffer()
	done := make(chan result, 1)
	go func() {
		done <- runIO(t, ctx, &IOStreams{Out: out, ErrOut: errOut}, "watch", "--subscribe", uri, "--json")
	}()
	errOut.waitFor(t, `watching server "a"`, done)
	errOut.waitFor(t, `watching server "b"`, done)
	for _, hs := range []string{a.URL, b.URL} {
		run(t, "call", "touch", "--arg", "uri="+uri, hs).wantCode(t, 0)
	}
	out.waitFor(t, `"server":"a","method":"notifications/resources/updated"`, done)
	out.waitFor(t, `"server":"b","method":"notifications/resources/updated"`, done)
	a.Close()
	errOut.waitFor(t, `cannot connect to server "a": the server stopped answering`, done)
	// b is still watched.
	run(t, "call", "touch", "--arg", "uri="+uri, b.URL).wantCode(t, 0)
	out.waitForCount(t, `"server":"b"`, 2, done)
	b.Close()
	r := <-done
	if r.code != ExitConnect {
		t.Errorf("exit %d, want %d; stderr %q", r.code, ExitConnect, errOut.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var v struct{ Server, Method string }
		if err := json.Unmarshal([]byte(line), &v); err != nil || v.Server == "" {
			t.Errorf("not a JSON line naming its server: %q", line)
		}
	}
}
