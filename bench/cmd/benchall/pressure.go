package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/bench/canned"
	"github.com/mcpwire/mcpwire/bench/clients"
	"github.com/mcpwire/mcpwire/manager"
)

// The flood and the storm: a server under pressure from the other side,
// sending notifications faster than the host takes them (stdio only).
const (
	floodCount   = 5000
	floodSize    = 10 << 10
	handlerDelay = time.Millisecond
	stormCount   = 1000
	stormGap     = time.Millisecond
)

var (
	mHeld      = Metric{Key: "held-ms", Head: "server held up, ms", Lower: true, Bar: 1, Format: "%.0f"}
	mFloodHeap = Metric{Key: "heap-MiB", Head: "heap held after the flood, MiB", Lower: true, Format: "%.1f"}
	mDelivered = Metric{Key: "delivered", Head: "delivered", Format: "%.0f"}
	mDropped   = Metric{Key: "dropped", Head: "dropped and reported", Format: "%.0f"}
	mLists     = Metric{Key: "lists", Head: "tools/list requests", Lower: true, Format: "%.0f"}
	mFinal     = Metric{Key: "final-ms", Head: "last list after the last announcement, ms", Lower: true, Format: "%.0f"}
)

// notedClients keeps the clients that offer a notification handler.
func notedClients(cs []*clients.Client) []*clients.Client {
	var out []*clients.Client
	for _, c := range cs {
		if c.ConnectNoted != nil {
			out = append(out, c)
		}
	}
	return out
}

// flood: the server sends floodCount log notifications of 10 KiB as fast
// as it can, to a handler that takes 1 ms each. How long the server is
// held up (the notify call answers after its last notification), how much
// the client's heap grows meanwhile, and what reaches the handler.
func (e *env) flood(tr string) *Table {
	cs := notedClients(e.clientsFor(tr, false))
	n := e.n(floodCount)
	t := newTable("flood/"+tr, fmt.Sprintf("A flood of %d log notifications of 10 KiB against a handler that takes 1 ms, %s", n, transportNames[tr]),
		names(cs), mHeld, mFloodHeap, mDelivered, mDropped)
	t.Note = "mcpwire: `manager.Subscribe` (a bounded queue per subscriber, 1,024 events by default, that drops the oldest notifications and reports them). " +
		"go-sdk: `ClientOptions.LoggingMessageHandler`, which queues notifications for the handler without a bound. " +
		"mcp-go: `Client.OnNotification` (after `Start`), which calls the handler on the connection's reading goroutine, so a slow handler holds the server, and every call on the connection, up. " +
		"Heap held is the live heap (after a collection) when the server has sent its last notification, less the live heap before the flood: what the client keeps queued for the handler. " +
		"Delivered and dropped are counted once the handler has seen, or been told of, every notification."
	e.interleave(cs, func(rep int, c *clients.Client) {
		if _, failed := t.Failures[c.Name]; failed {
			return
		}
		ctx, cancel := measureCtx()
		defer cancel()
		var seen atomic.Int64
		s, err := c.ConnectNoted(ctx, e.targets[tr], func(method string) {
			if method == canned.LogMethod {
				seen.Add(1)
				time.Sleep(handlerDelay)
			}
		})
		if err != nil {
			t.fail(c.Name, fmt.Errorf("connect: %w", err))
			return
		}
		defer s.Close()
		base := liveHeap()
		t0 := time.Now()
		_, err = s.CallText(ctx, canned.NotifyTool, map[string]any{"count": n, "size": floodSize, "method": canned.LogMethod})
		held := time.Since(t0)
		if err != nil {
			t.fail(c.Name, err)
			return
		}
		kept := liveHeap() - base
		// The handler catches up, bounded by its own pace.
		deadline := time.Now().Add(time.Duration(n)*handlerDelay*2 + 10*time.Second)
		for int(seen.Load())+s.Dropped() < n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		t.add(c.Name, mHeld.Key, float64(held.Microseconds())/1000)
		t.add(c.Name, mFloodHeap.Key, float64(kept)/(1<<20))
		t.add(c.Name, mDelivered.Key, float64(seen.Load()))
		t.add(c.Name, mDropped.Key, float64(s.Dropped()))
	})
	return t
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// storm: the server announces tools/list_changed stormCount times, 1 ms
// apart. How many tools/list requests the host's refreshing costs, and
// how soon after the last announcement its list is fresh. Only mcpwire's
// manager refreshes lists by itself; the other clients hand each
// announcement to a callback and leave refreshing to the host.
func (e *env) storm(tr string) *Table {
	var cs []*clients.Client
	for _, c := range notedClients(e.clientsFor(tr, false)) {
		if c.Name == "mcpwire" {
			cs = append(cs, c)
		}
	}
	n := e.n(stormCount)
	t := newTable("storm/"+tr, fmt.Sprintf("A storm of %d tools/list_changed, 1 ms apart, %s", n, transportNames[tr]),
		names(cs), mLists, mFinal)
	t.Note = fmt.Sprintf("mcpwire's manager refreshes a list when its announcements pause for %s, and at least every %s while they do not. "+
		"go-sdk (`ToolListChangedHandler`) and mcp-go (`OnNotification`) only hand each announcement to a callback and keep no list, "+
		"so they have no figure here. The server counts the tools/list requests from the start of the storm until %s after its end.",
		manager.DefaultRefreshQuiet, manager.DefaultRefreshMaxWait, manager.DefaultRefreshMaxWait+500*time.Millisecond)
	e.interleave(cs, func(rep int, c *clients.Client) {
		if _, failed := t.Failures[c.Name]; failed {
			return
		}
		ctx, cancel := measureCtx()
		defer cancel()
		s, err := c.ConnectNoted(ctx, e.targets[tr], func(string) {})
		if err != nil {
			t.fail(c.Name, fmt.Errorf("connect: %w", err))
			return
		}
		defer s.Close()
		if _, err := s.CallText(ctx, canned.NotifyTool, map[string]any{"count": n, "method": canned.ToolsChangedMethod, "gap_us": stormGap.Microseconds()}); err != nil {
			t.fail(c.Name, err)
			return
		}
		time.Sleep(manager.DefaultRefreshMaxWait + 500*time.Millisecond)
		text, err := s.CallText(ctx, canned.StatsTool, nil)
		if err != nil {
			t.fail(c.Name, err)
			return
		}
		lists, after, err := parseStats(text)
		if err != nil {
			t.fail(c.Name, err)
			return
		}
		t.add(c.Name, mLists.Key, float64(lists))
		t.add(c.Name, mFinal.Key, after)
	})
	return t
}

// parseStats reads the stats tool's "LISTS AFTER_MS".
func parseStats(text string) (int, float64, error) {
	f := strings.Fields(text)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("stats: %q", text)
	}
	lists, err1 := strconv.Atoi(f[0])
	after, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("stats: %q", text)
	}
	return lists, after, nil
}
