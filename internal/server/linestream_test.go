package server

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// gateWriter is a writer of the caller's that the stream cannot cut
// short: each Write says it started and waits to be let through.
type gateWriter struct {
	started chan string
	release chan struct{}
	wrote   chan struct{}

	mu      sync.Mutex
	writing int
	overlap bool
	got     string
}

func (g *gateWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	g.writing++
	g.overlap = g.overlap || g.writing > 1
	g.mu.Unlock()
	g.started <- string(p)
	<-g.release
	g.mu.Lock()
	g.writing--
	g.got += string(p)
	g.mu.Unlock()
	g.wrote <- struct{}{}
	return len(p), nil
}

// A line whose writer stopped waiting (its ctx ended) is still written
// whole before the next one starts, and Close stops a writer waiting on a
// write that does not return.
func TestLineStreamHandsOffWritesItCannotCutShort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gateWriter{started: make(chan string, 2), release: make(chan struct{}), wrote: make(chan struct{}, 2)}
		inR, inW := io.Pipe()
		defer inW.Close()
		st := newLineStream(inR, g, inR.Close)
		if !st.handOff {
			t.Fatal("a plain writer's lines are not handed off")
		}

		ctx, cancel := context.WithCancel(context.Background())
		first := make(chan error, 1)
		go func() { first <- st.WriteRaw(ctx, []byte("a\n")) }()
		<-g.started
		cancel()
		if err := <-first; !errors.Is(err, context.Canceled) {
			t.Fatalf("a write whose ctx ended: %v, want context.Canceled", err)
		}
		second := make(chan error, 1)
		go func() { second <- st.WriteRaw(context.Background(), []byte("b\n")) }()
		synctest.Wait()
		if len(g.started) > 0 {
			t.Fatal("the second line started while the first was still being written")
		}
		g.release <- struct{}{} // "a" ends; "b" may start
		if p := <-g.started; p != "b\n" {
			t.Fatalf("the second write wrote %q", p)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-second; !errors.Is(err, jsonrpc.ErrClosed) {
			t.Fatalf("a write blocked at Close: %v, want jsonrpc.ErrClosed", err)
		}
		if err := st.WriteRaw(context.Background(), []byte("c\n")); !errors.Is(err, jsonrpc.ErrClosed) {
			t.Fatalf("a write after Close: %v, want jsonrpc.ErrClosed", err)
		}
		g.release <- struct{}{} // what is behind the writer lets "b" end
		<-g.wrote
		<-g.wrote
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.overlap || g.got != "a\nb\n" {
			t.Errorf("the writer got %q (overlapping writes: %v), want each line whole, in order", g.got, g.overlap)
		}
	})
}
