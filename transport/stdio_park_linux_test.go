package transport

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// waitParked waits until the engine parked s's stdout: it holds no read
// goroutine, and the shared poller watches the pipe for it.
func waitParked(t *testing.T, s *stdioStream) {
	t.Helper()
	p, ok := s.cfg.parker.(*readyPipe)
	if !ok {
		t.Fatal("stdout of a stdio stream cannot park")
	}
	for deadline := time.Now().Add(longTimeout); ; runtime.Gosched() {
		stderrPolling.mu.Lock()
		parked := p.parkFd >= 0 && stderrPolling.parked[p.parkFd] == p
		// Parked under the poller's lock, no turn runs: the reader is
		// as park left it.
		holds := parked && s.reader.HoldsBuffer()
		stderrPolling.mu.Unlock()
		if holds {
			t.Fatal("a parked connection holds a read buffer")
		}
		if parked {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("an idle connection did not park its stdout")
		}
	}
}

// An idle connection parks; what the server sends then (a notification,
// its exit) wakes it, and a call takes the stream back at once.
func TestStdioIdleConnectionParksAndWakes(t *testing.T) {
	s := connect(t, childCommand(t, childPoke))
	conn := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer conn.Close()
	poked := make(chan struct{}, 1)
	conn.Subscribe("poked", func(*jsonrpc.Notification) { poked <- struct{}{} })
	ctx := context.Background()

	waitParked(t, s) // before any call: the read goroutine parks at once
	for i := range 3 {
		if _, err := conn.Call(ctx, "call", map[string]int{"n": i}, nil); err != nil {
			t.Fatalf("call %d from a parked connection: %v", i, err)
		}
		waitParked(t, s)
		if err := conn.Notify(ctx, "poke", nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-poked:
		case <-time.After(longTimeout):
			t.Fatalf("round %d: a notification to a parked connection was not delivered", i)
		}
		waitParked(t, s)
	}
	if err := conn.Notify(ctx, "quit", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-conn.Done():
	case <-time.After(longTimeout):
		t.Fatal("the exit of a parked connection's server went unnoticed")
	}
	var ee *ExitError
	if err := conn.Err(); !errors.As(err, &ee) || ee.ExitCode != 5 {
		t.Fatalf("connection ended with %v, want the server's exit status 5", err)
	}
}

// Calls from many goroutines, the server's notifications and idle spells
// (in which the connection parks) interleave: every call gets its
// response and every notification is delivered, whoever reads.
func TestStdioParkingUnderConcurrentCalls(t *testing.T) {
	s := connect(t, childCommand(t, childPoke))
	conn := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer conn.Close()
	poked := make(chan struct{}, 64)
	conn.Subscribe("poked", func(*jsonrpc.Notification) { poked <- struct{}{} })
	ctx := context.Background()
	const workers, rounds = 6, 20
	for round := range rounds {
		errs := make(chan error, workers)
		for w := range workers {
			go func() {
				if w%3 == 0 {
					errs <- conn.Notify(ctx, "poke", nil)
					return
				}
				_, err := conn.Call(ctx, "call", map[string]int{"round": round, "worker": w}, nil)
				errs <- err
			}()
		}
		for range workers {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		for range workers / 3 {
			select {
			case <-poked:
			case <-time.After(longTimeout):
				t.Fatalf("round %d: a notification was not delivered", round)
			}
		}
		if round%4 == 3 {
			waitParked(t, s)
		}
	}
}
