//go:build unix

package cli

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// startDraining starts serve --listen with --drain d over the test's
// mcptest server and returns it, its endpoint, and its stderr after the
// "serving at" line.
func startDraining(t *testing.T, d string) (*drainedServe, string, *bufio.Scanner) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cmd := exec.Command(os.Args[0], "serve", "--listen", "127.0.0.1:0", "--no-auth", "--drain", d, "--", os.Args[0], ServeName)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ds := &drainedServe{Cmd: cmd, wait: sync.OnceValue(cmd.Wait)}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = ds.wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if url, ok := strings.CutPrefix(lines.Text(), "mcpwire: serving at "); ok {
			return ds, strings.Fields(url)[0], lines
		}
	}
	t.Fatal("serve said nowhere it serves")
	return nil, "", nil
}

// drainedServe is the serve process, waited for once whoever asks first
// (the test, or its cleanup).
type drainedServe struct {
	*exec.Cmd
	wait func() error
}

// slowCall calls the upstream's slow tool through serve and tells progress
// once its first step is reported.
func slowCall(t *testing.T, url string, steps int, delay time.Duration) (*mcp.Client, <-chan struct{}, <-chan error) {
	t.Helper()
	ctx := context.Background()
	c, err := mcp.Connect(ctx, &transport.StreamableHTTP{URL: url}, &mcp.ClientOptions{ProtocolVersion: mcp.LatestLegacyProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	progress, result := make(chan struct{}), make(chan error, 1)
	go func() {
		first := true
		res, err := c.CallTool(ctx, "slow", map[string]any{"steps": steps, "delay_ms": delay.Milliseconds()}, &mcp.CallOptions{
			OnProgress: func(context.Context, mcp.ProgressNotification) {
				if first {
					first = false
					close(progress)
				}
			},
		})
		if err == nil && (res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "done after")) {
			err = io.ErrUnexpectedEOF
		}
		result <- err
	}()
	return c, progress, result
}

// exits waits for cmd to exit, failing the test if it has not within
// bound (far longer than the run should take, far shorter than --drain).
func exits(t *testing.T, cmd *drainedServe) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatal("serve --drain did not exit: something (a host's GET stream?) held its drain open")
		return nil
	}
}

// openGETStream starts a 2025-11-25 session by hand and opens its GET
// stream, returning the stream's body once its first event arrived.
func openGETStream(t *testing.T, url string) io.ReadCloser {
	t.Helper()
	post := func(body, session string) *http.Response {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	init := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
	session := init.Header.Get("Mcp-Session-Id")
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session)
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", resp, err)
	}
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatalf("GET stream: no first event: %v", err)
	}
	return resp.Body
}

// With --drain, SIGTERM lets a call in flight finish instead of cutting
// it off, and a host's open GET stream, which never ends by itself, is
// ended rather than holding the stop up to the drain's bound.
func TestServeDrainLetsACallInFlightFinish(t *testing.T) {
	cmd, url, stderr := startDraining(t, "1h")
	listening := openGETStream(t, url)
	defer listening.Close()
	_, progress, result := slowCall(t, url, 4, 250*time.Millisecond)
	<-progress
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-result; err != nil {
		t.Errorf("the call in flight during the drain: %v", err)
	}
	ended := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, listening); ended <- err }()
	rest := make(chan string, 1)
	go func() {
		var said strings.Builder
		for stderr.Scan() {
			said.WriteString(stderr.Text() + "\n")
		}
		rest <- said.String()
	}()
	if err := exits(t, cmd); err != nil {
		t.Errorf("exit after the drain: %v", err)
	}
	if err := <-ended; err != nil {
		t.Errorf("the GET stream did not end cleanly: %v", err)
	}
	if said := <-rest; !strings.Contains(said, "draining: no new connections") {
		t.Errorf("the drain was not told: %q", said)
	}
}

// A second signal during the drain stops serve at once; the call still
// running is cut off.
func TestServeDrainSecondSignalStopsAtOnce(t *testing.T) {
	cmd, url, stderr := startDraining(t, "1h")
	c, progress, result := slowCall(t, url, 100000, time.Second)
	<-progress
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for stderr.Scan() && !strings.Contains(stderr.Text(), "draining:") {
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := exits(t, cmd); err != nil {
		t.Errorf("exit after the second signal: %v", err)
	}
	c.Close() // rather than wait for the client to give up resuming
	if err := <-result; err == nil {
		t.Error("a call of 100000 s finished: the second signal did not stop serve")
	}
}
