//go:build unix

package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// hangBound is how long a test waits for what must happen at once (or
// after drainTimeout) before it calls it a hang: a failure path only.
const hangBound = 30 * time.Second

// stuckOut is a writer for the server's output whose reader the test
// controls: peer is its reading end, which the test stops reading.
type stuckOut struct {
	name string
	make func(t *testing.T) (out io.WriteCloser, peer *os.File)
}

var stuckOuts = []stuckOut{
	// An OS pipe in the runtime's poller, as os.Pipe and os/exec make.
	{"os pipe", func(t *testing.T) (io.WriteCloser, *os.File) {
		r, w := osPipe(t)
		return w, r
	}},
	// A pipe that is not in the poller: what a child process inherits
	// as its stdout (os/exec hands it over in blocking mode), and what
	// ServeStdio writes to there. Closing it does not interrupt a
	// write in progress.
	{"blocking pipe", func(t *testing.T) (io.WriteCloser, *os.File) {
		var fds [2]int
		syscall.ForkLock.RLock()
		err := syscall.Pipe(fds[:])
		if err == nil {
			syscall.CloseOnExec(fds[0])
			syscall.CloseOnExec(fds[1])
		}
		syscall.ForkLock.RUnlock()
		if err != nil {
			t.Fatal(err)
		}
		return os.NewFile(uintptr(fds[1]), "blocking-w"), os.NewFile(uintptr(fds[0]), "blocking-r")
	}},
	// A writer of the caller's that the server can neither close nor
	// cut short (`mcpwire serve --stdio` gets its stdout behind the
	// CLI's masking and locking writers, and a Close that does
	// nothing).
	{"opaque writer", func(t *testing.T) (io.WriteCloser, *os.File) {
		r, w := osPipe(t)
		t.Cleanup(func() { _ = w.Close() })
		return nopCloser{struct{ io.Writer }{w}}, r
	}},
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// stuckServes are the server's two stdio readers: its own line stream
// (mcptest's ServeStdio and ServeLines) and transport's stream
// (`mcpwire serve --stdio`, through the gateway).
var stuckServes = []struct {
	name  string
	serve func(ctx context.Context, s *Server, in *os.File, out io.WriteCloser) error
}{
	{"line stream", func(ctx context.Context, s *Server, in *os.File, out io.WriteCloser) error {
		return s.ServeLines(ctx, in, out)
	}},
	{"transport stream", func(ctx context.Context, s *Server, in *os.File, out io.WriteCloser) error {
		return s.Serve(ctx, transport.NewStream(in, out, closeAll{in, out}))
	}},
}

// TestServeEndsWhileItsOutputIsNotRead: a host that stops reading the
// server's output while a write to it is under way (a tool result larger
// than the pipe holds) must not keep Serve or Close from returning, when
// Serve's ctx ends, when the server is closed, or when the host's input
// ends. A write that nothing can cut short is left to finish when
// whatever is behind the writer lets it, and its goroutine ends then
// (here when the test closes the pipe's reading end; TestMain checks that
// no goroutine is left).
func TestServeEndsWhileItsOutputIsNotRead(t *testing.T) {
	stops := []struct {
		name string
		stop func(cancel context.CancelFunc, s *Server, hostIn io.Closer)
	}{
		{"ctx ends", func(cancel context.CancelFunc, _ *Server, _ io.Closer) { cancel() }},
		{"server closed", func(_ context.CancelFunc, s *Server, _ io.Closer) { go s.Close() }},
		{"input ends", func(_ context.CancelFunc, _ *Server, hostIn io.Closer) { _ = hostIn.Close() }},
	}
	for _, sv := range stuckServes {
		for _, o := range stuckOuts {
			for _, st := range stops {
				t.Run(sv.name+"/"+o.name+"/"+st.name, func(t *testing.T) {
					upR, upW := osPipe(t) // host -> server
					defer upW.Close()
					s := NewDefault(nil)
					defer s.Close()
					out, peer := o.make(t)
					defer peer.Close() // lets a write left behind end, before s.Close
					ctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					served := make(chan error, 1)
					go func() { served <- sv.serve(ctx, s, upR, out) }()

					startLargeReply(t, upW, peer)
					st.stop(cancel, s, upW)
					select {
					case err := <-served:
						if err != nil && !errors.Is(err, context.Canceled) {
							t.Errorf("Serve: %v", err)
						}
					case <-time.After(hangBound):
						t.Fatalf("Serve still runs %v after it was told to stop, blocked writing to a host that does not read", hangBound)
					}
					closed := make(chan struct{})
					go func() { _ = s.Close(); close(closed) }()
					select {
					case <-closed:
					case <-time.After(hangBound):
						t.Fatalf("Close still runs %v after serving ended", hangBound)
					}
				})
			}
		}
	}
}

// startLargeReply makes the handshake, asks for a result far larger than
// a pipe holds and reads the start of it: the server is then in the
// middle of writing a line it cannot finish until peer is read.
func startLargeReply(t *testing.T, hostOut io.Writer, peer io.Reader) {
	t.Helper()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(hostOut, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	br := bufio.NewReader(peer)
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if line, err := readLine(br); err != nil || !isResponseTo(t, string(line), 1) {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"large","arguments":{"bytes":4194304}}}`)
	start := make([]byte, 4096)
	if _, err := io.ReadFull(br, start); err != nil {
		t.Fatalf("reading the start of the large result: %v", err)
	}
}

func isResponseTo(t *testing.T, line string, id int64) bool {
	r := decodeResponse(t, line)
	return r != nil && r.ID == jsonrpc.Int64ID(id) && r.Error == nil
}

// TestChildEndsWhileItsStdoutIsNotRead: the server as a child process
// (ServeStdio), whose host stops reading its stdout in the middle of a
// reply and then closes its stdin, exits once the request in flight has
// had drainTimeout to be answered.
func TestChildEndsWhileItsStdoutIsNotRead(t *testing.T) {
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	cmd := ChildCommand().Command(ctx)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	startLargeReply(t, stdin, stdout)
	go func() { exited <- cmd.Wait() }()
	_ = stdin.Close()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the child: %v, want a normal exit", err)
		}
	case <-time.After(hangBound):
		kill()
		<-exited
		t.Fatalf("the child still runs %v after its stdin ended, blocked writing to a host that does not read", hangBound)
	}
}
