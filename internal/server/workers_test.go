package server

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// goroutineID is the running goroutine's number, from its stack header.
func goroutineID() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b, _ = bytes.CutPrefix(b, []byte("goroutine "))
	b, _, _ = bytes.Cut(b, []byte(" "))
	id, _ := strconv.ParseInt(string(b), 10, 64)
	return id
}

// holdingServer has a tool "hold" whose calls report the goroutine they
// run on and then wait for release.
func holdingServer() (s *Server, ran chan int64, release chan struct{}) {
	s = NewServer(&Options{NoRecord: true})
	ran, release = make(chan int64, 16), make(chan struct{})
	s.AddTool(Tool{Name: "hold", InputSchema: []byte(`{"type":"object"}`)}, func(_ context.Context, _ *ToolRequest) (*ToolResult, error) {
		ran <- goroutineID()
		<-release
		return TextResult("ok"), nil
	})
	return s, ran, release
}

// wave sends n concurrent calls of "hold", waits until all n run, lets
// them finish and returns the goroutines they ran on.
func wave(t *testing.T, c *wireClient, ran chan int64, release chan struct{}, n int) map[int64]bool {
	t.Helper()
	ids := make([]jsonrpc.ID, n)
	for i := range ids {
		ids[i] = c.request("tools/call", map[string]any{"name": "hold", "arguments": map[string]any{}})
	}
	on := map[int64]bool{}
	for range n {
		on[<-ran] = true
	}
	for range n {
		release <- struct{}{}
	}
	for range ids { // answered in any order
		m, ok := c.next()
		resp, isResp := m.(*jsonrpc.Response)
		if !ok || !isResp || resp.Error != nil {
			t.Fatalf("want a result of hold, got %#v", m)
		}
	}
	return on
}

// afterFirstWave serves a session of holdingServer and makes a first wave
// of 4 calls, returning once its workers (all the session has) are parked.
func afterFirstWave(t *testing.T) (s *Server, c *wireClient, ran chan int64, release chan struct{}, first map[int64]bool) {
	s, ran, release = holdingServer()
	t.Cleanup(func() { _ = s.Close() })
	c = initialized(t, s)
	// The worker that answered initialize parks before the wave, which
	// then runs on it: else it may park only after the wave took new
	// goroutines, and a call of the next wave run on it.
	synctest.Wait()
	first = wave(t, c, ran, release, 4)
	synctest.Wait()
	return s, c, ran, release, first
}

// parkedWorkers returns a func that counts ss's parked workers.
func parkedWorkers(ss *Session) func() int {
	return func() int {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		return ss.parked
	}
}

// A session with calls in flight runs the next ones on the goroutines
// that ran the last ones (whose stacks have grown to a call's depth)
// instead of starting a goroutine per request.
func TestSessionReusesWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c, ran, release, first := afterFirstWave(t)
		for id := range wave(t, c, ran, release, 4) {
			if !first[id] {
				t.Errorf("a call of the second wave ran on a new goroutine (%d), not on one of the first wave's %v", id, first)
			}
		}
	})
}

// Once a session has run nothing for lingerFor, its parked workers end:
// an idle session (one of thousands over HTTP) keeps no goroutine.
func TestIdleSessionEndsItsWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, c, ran, release, first := afterFirstWave(t)
		parked := parkedWorkers(s.Sessions()[0])
		if parked() == 0 {
			t.Fatal("no worker parked after the first wave")
		}
		time.Sleep(lingerFor)
		synctest.Wait()
		if n := parked(); n != 0 {
			t.Errorf("%d workers still parked %v after the session's last work", n, lingerFor)
		}
		for id := range wave(t, c, ran, release, 4) {
			if first[id] {
				t.Errorf("a call after the linger ran on goroutine %d of the first wave, which should have ended", id)
			}
		}
	})
}

// A session that keeps one call running (a long tool call, a task) still
// ends the workers that parked after a burst of calls once nothing new
// started for lingerFor: they are not kept for as long as that call runs.
func TestLongCallDoesNotKeepIdleWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, ran, release := holdingServer()
		started, finish := make(chan struct{}), make(chan struct{})
		s.AddTool(Tool{Name: "long", InputSchema: []byte(`{"type":"object"}`)}, func(context.Context, *ToolRequest) (*ToolResult, error) {
			close(started)
			<-finish
			return TextResult("done"), nil
		})
		t.Cleanup(func() { _ = s.Close() })
		c := initialized(t, s)
		c.request("tools/call", map[string]any{"name": "long", "arguments": map[string]any{}})
		<-started
		wave(t, c, ran, release, 4)
		synctest.Wait()
		parked := parkedWorkers(s.Sessions()[0])
		if parked() == 0 {
			t.Fatal("no worker parked after the burst")
		}
		time.Sleep(2 * lingerFor)
		synctest.Wait()
		if n := parked(); n != 0 {
			t.Errorf("%d workers still parked %v after the burst, while one call runs", n, 2*lingerFor)
		}
		close(finish)
		if m, ok := c.next(); !ok {
			t.Fatal("no response to the long call")
		} else if resp, isResp := m.(*jsonrpc.Response); !isResp || resp.Error != nil {
			t.Fatalf("want the long call's result, got %#v", m)
		}
	})
}
