package transport

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// parentWatches returns the refs of the stream's watches of its callers'
// ctxs, in list order.
func parentWatches(s *httpStream) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var refs []int
	for pw := s.parents; pw != nil; pw = pw.next {
		refs = append(refs, pw.refs)
	}
	return refs
}

// POSTs in flight whose callers share one ctx share one watch of it (all
// but the first, which registers by itself: the stream's last POST did
// not watch that ctx); a POST that ends leaves the others watched, and the
// ctx's end stops every one still in flight, whichever way it watched.
// Once none is, the stream keeps no watch.
func TestHTTPPostsShareTheirCallersContextWatch(t *testing.T) {
	s, arrived, gone := stallingSession(t)
	hs := s.(*httpStream)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	const stalled = 3
	errs := make(chan error, stalled)
	for i := range stalled {
		go func() {
			errs <- s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(10 + i)), Method: "tools/call"})
		}()
		<-arrived
	}
	if got := parentWatches(hs); len(got) != 1 || got[0] != stalled-1 {
		t.Fatalf("watches with %d POSTs in flight on one ctx: refs %v, want [%d]", stalled, got, stalled-1)
	}

	// One more on the same ctx, answered at once: it leaves the watch
	// to the others.
	if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/list"}); err != nil {
		t.Fatalf("Write tools/list: %v", err)
	}
	if m, err := s.Read(context.Background()); err != nil {
		t.Fatalf("Read: %v", err)
	} else if r, ok := m.(*jsonrpc.Response); !ok || r.ID != jsonrpc.Int64ID(2) {
		t.Fatalf("read %#v, want the response to 2", m)
	}
	if got := parentWatches(hs); len(got) != 1 || got[0] != stalled-1 {
		t.Fatalf("watches after one POST on the ctx ended: refs %v, want [%d]", got, stalled-1)
	}

	cancel()
	for range stalled {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("Write with its shared ctx cancelled: %v, want context.Canceled", err)
		}
		<-gone
	}
	if got := parentWatches(hs); len(got) != 0 {
		t.Errorf("watches after every POST ended: refs %v, want none", got)
	}
	// The stopped calls are not reused: the next Write is answered.
	streamRoundTrip(t, s, 3, "tools/list")
	if got := parentWatches(hs); len(got) != 0 {
		t.Errorf("watches after a POST with an uncancellable ctx: refs %v, want none", got)
	}
	// Idle, the stream holds nothing of the callers' ctxs.
	hs.mu.Lock()
	last := hs.lastParent
	hs.mu.Unlock()
	if last != nil {
		t.Errorf("an idle stream still holds the Done of its last caller's ctx")
	}
}

// POSTs whose callers have ctxs of their own each register by themselves,
// and the stream keeps no watch for them: one ctx's end stops its POST
// only.
func TestHTTPPostContextWatchesApart(t *testing.T) {
	s, arrived, gone := stallingSession(t)
	hs := s.(*httpStream)
	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	err1, err2 := make(chan error, 1), make(chan error, 1)
	go func() { err1 <- s.Write(ctx1, &jsonrpc.Request{ID: jsonrpc.Int64ID(10), Method: "tools/call"}) }()
	<-arrived
	go func() { err2 <- s.Write(ctx2, &jsonrpc.Request{ID: jsonrpc.Int64ID(11), Method: "tools/call"}) }()
	<-arrived
	if got := parentWatches(hs); len(got) != 0 {
		t.Fatalf("watches of two POSTs on two ctxs: refs %v, want none", got)
	}
	for i, end := range []struct {
		cancel context.CancelFunc
		err    chan error
	}{{cancel1, err1}, {cancel2, err2}} {
		if i > 0 {
			select {
			case err := <-end.err:
				t.Fatalf("the other ctx's Write ended too: %v", err)
			default:
			}
		}
		end.cancel()
		if err := <-end.err; !errors.Is(err, context.Canceled) {
			t.Errorf("Write %d with its ctx cancelled: %v, want context.Canceled", i+1, err)
		}
		<-gone
		if got := parentWatches(hs); len(got) != 0 {
			t.Fatalf("watches after ctx %d ended: refs %v, want none", i+1, got)
		}
	}
}
