package manager

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/config"
)

// A flood of large log notifications against a subscriber that does not
// move: the servers and a second subscriber go on, the heap stays within
// the queue's bound, and the slow subscriber is told how many of its
// events were dropped, and gets every state change.
func TestNotificationFloodAgainstSlowSubscriber(t *testing.T) {
	const (
		flood = 5000
		size  = 10 << 10
		limit = 64
	)
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true, EventQueue: limit})
		defer m.Close()

		release, caughtUp := make(chan struct{}), make(chan struct{})
		var slow []Event
		var after int // tools after the one removed; set before release
		m.Subscribe(func(e Event) {
			<-release
			e.Notification = nil // keep the count, not the bytes
			slow = append(slow, e)
			if e.Kind == ToolsChanged && e.Tools == after {
				close(caughtUp)
			}
		})
		// The fast subscriber counts and keeps nothing, so that the heap
		// shows what the manager holds.
		var fast atomic.Int64
		fastDone := make(chan struct{})
		m.Subscribe(func(e Event) {
			// It may fall behind too: what it misses, it is told of.
			n := int64(0)
			switch {
			case e.Kind == Notification && e.Notification.Method == "test/log":
				n = 1
			case e.Kind == Dropped:
				n = int64(e.Dropped)
			}
			if n > 0 && fast.Add(n) == flood {
				close(fastDone)
			}
		})
		log := record(m)
		m.Start(t.Context())
		log.waitFor(t, "a", Connected, 1)
		log.Close()

		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ss := srv.Sessions()[0]
		payload := map[string]string{"text": strings.Repeat("x", size)}
		for range flood {
			if err := ss.Notify(context.Background(), "test/log", payload); err != nil {
				t.Fatal(err)
			}
		}
		<-fastDone // the other subscriber was not held up
		synctest.Wait()
		runtime.GC()
		var heap runtime.MemStats
		runtime.ReadMemStats(&heap)
		// Unbounded, the slow subscriber's queue would hold flood*size
		// (50 MB); bounded, limit*size (640 KiB).
		if grew := int64(heap.HeapAlloc) - int64(before.HeapAlloc); grew > 8<<20 {
			t.Errorf("heap grew by %d MB during the flood", grew>>20)
		}

		// A state change after the flood is queued, never dropped.
		after = len(m.Tools()) - 1
		srv.RemoveTool("echo")
		close(release)
		<-caughtUp
		m.Close()

		got, dropped, kinds := 0, 0, map[EventKind]int{}
		for _, e := range slow {
			kinds[e.Kind]++
			switch e.Kind {
			case Dropped:
				dropped += e.Dropped
			case Notification:
				got++
			}
		}
		if dropped == 0 {
			t.Fatalf("no Dropped event; got %v", kinds)
		}
		// Every notification was either delivered or counted as dropped.
		if want := flood + 1; got+dropped != want { // + tools/list_changed
			t.Errorf("%d delivered + %d dropped notifications, want %d", got, dropped, want)
		}
		if got > limit+1 {
			t.Errorf("%d notifications delivered from a queue of %d", got, limit)
		}
		for _, k := range []EventKind{Connecting, Connected, ToolsChanged, Closed} {
			if kinds[k] == 0 {
				t.Errorf("no %s event reached the slow subscriber: %v", k, kinds)
			}
		}
	})
}

// The queue drops the oldest droppable event, keeps the order of the
// rest, and keeps state changes whatever the bound.
func TestEventQueueDropsOldestNotification(t *testing.T) {
	var q eventQueue
	kinds := []EventKind{Connecting, Notification, Connected, Warning, Notification}
	for i, k := range kinds {
		q.push(Event{Kind: k, Attempt: i})
	}
	if !q.dropOldest(EventKind.droppable) || !q.dropOldest(EventKind.droppable) {
		t.Fatal("nothing dropped")
	}
	var got []int
	for q.len() > 0 {
		got = append(got, q.pop().Attempt)
	}
	if want := []int{0, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("after two drops: %v, want %v", got, want)
	}
	q.push(Event{Kind: Connected})
	if q.dropOldest(EventKind.droppable) {
		t.Error("dropped a state change")
	}
}
