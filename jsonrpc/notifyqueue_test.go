package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// floodClassify treats MCP's log messages as droppable, as the mcp
// package's classification does.
func floodClassify(method string) NotificationClass {
	switch method {
	case "notifications/message", MethodProgress:
		return Droppable
	case "notifications/tools/list_changed":
		return Coalesced
	}
	return Kept
}

// blockedSubscriber subscribes to every notification and holds the first
// delivery until release is closed; entered is closed once it holds it.
type blockedSubscriber struct {
	entered, release chan struct{}
	once             sync.Once
	mu               sync.Mutex
	got              []string // params of each delivery, in order
}

func subscribeBlocked(c *Conn) *blockedSubscriber {
	b := &blockedSubscriber{entered: make(chan struct{}), release: make(chan struct{})}
	c.Subscribe("", func(n *Notification) {
		b.mu.Lock()
		b.got = append(b.got, string(n.Params))
		b.mu.Unlock()
		b.once.Do(func() {
			close(b.entered)
			<-b.release
		})
	})
	return b
}

func (b *blockedSubscriber) delivered() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.got...)
}

func logNote(i int, pad int) *Notification {
	return &Notification{Method: "notifications/message",
		Params: json.RawMessage(fmt.Sprintf(`{"level":"info","data":"%d %s"}`, i, strings.Repeat("x", pad)))}
}

// TestFloodStaysBounded floods a connection whose subscriber is stuck:
// the queue never holds more than its bounds, every notification not
// delivered is counted and reported, and a call made in the middle of
// the flood gets its response while the subscriber is still stuck.
func TestFloodStaysBounded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits QueueLimits
		pad    int
	}{
		{"count", QueueLimits{Length: 16, Bytes: 1 << 20}, 0},
		{"bytes", QueueLimits{Length: 10000, Bytes: 8 << 10}, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(t, func(t *testing.T, m readMode) {
				var reported atomic.Int64
				c, p := newTestConn(t, m, Options{Queue: tc.limits, Classify: floodClassify,
					OnDropped: func(k int) { reported.Add(int64(k)) }})
				sub := subscribeBlocked(c)
				const flood = 2000
				p.send(logNote(0, tc.pad))
				<-sub.entered

				type result struct {
					res json.RawMessage
					err error
				}
				done := make(chan result, 1)
				go func() {
					res, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{Timeout: NoTimeout})
					done <- result{res, err}
				}()
				req := p.recvRequest()
				for i := 1; i < flood; i++ {
					p.send(logNote(i, tc.pad))
					if i == flood/2 {
						p.reply(req, `{"answer":42}`)
					}
				}
				r := <-done // the subscriber is still stuck
				if r.err != nil || string(r.res) != `{"answer":42}` {
					t.Fatalf("the call made during the flood got %s, %v", r.res, r.err)
				}
				// A second call's response comes after the whole flood, so
				// when it returns the engine has read all of it.
				go func() {
					res, err := c.Call(context.Background(), "ping", nil, &CallOptions{Timeout: NoTimeout})
					done <- result{res, err}
				}()
				p.reply(p.recvRequest(), `{}`)
				if r := <-done; r.err != nil {
					t.Fatal(r.err)
				}

				st := c.QueueStats()
				if st.PeakLength > tc.limits.Length || st.PeakBytes > tc.limits.Bytes {
					t.Errorf("the queue held up to %d notifications, %d bytes; bounds %d, %d", st.PeakLength, st.PeakBytes, tc.limits.Length, tc.limits.Bytes)
				}
				if st.Length == 0 || st.Dropped == 0 {
					t.Fatalf("stats %+v: want a full queue and drops", st)
				}
				// One is held by the stuck subscriber; the rest are queued
				// or dropped, none lost uncounted.
				if got := 1 + st.Length + int(st.Dropped); got != flood {
					t.Errorf("1 delivering + %d queued + %d dropped = %d, want %d", st.Length, st.Dropped, got, flood)
				}
				close(sub.release)
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
				got := sub.delivered()
				if len(got)+int(st.Dropped) != flood {
					t.Errorf("%d delivered + %d dropped, want %d", len(got), st.Dropped, flood)
				}
				// The newest survive: the oldest droppable go first.
				if last := got[len(got)-1]; !strings.Contains(last, fmt.Sprintf(`"%d `, flood-1)) {
					t.Errorf("last delivered %.40s, want the last one sent", last)
				}
				if reported.Load() != int64(st.Dropped) {
					t.Errorf("OnDropped was told of %d drops, QueueStats counts %d", reported.Load(), st.Dropped)
				}
			})
		})
	}
}

// TestQueueDropOrder checks which notification a full queue gives up.
func TestQueueDropOrder(t *testing.T) {
	limits := QueueLimits{Length: 3, Bytes: 1 << 20}
	n := func(method, params string) *Notification {
		return &Notification{Method: method, Params: json.RawMessage(params)}
	}
	var q noteQueue
	push := func(x *Notification) { q.push(x, floodClassify(x.Method), limits) }
	contents := func() string {
		var s []string
		for _, e := range q.buf[q.head:] {
			s = append(s, string(e.n.Params))
		}
		return strings.Join(s, " ")
	}
	push(n("notifications/tasks/status", `"k1"`))
	push(n("notifications/message", `"d1"`))
	push(n("notifications/message", `"d2"`))
	push(n("notifications/tasks/status", `"k2"`)) // d1 goes
	if got, want := contents(), `"k1" "d2" "k2"`; got != want {
		t.Fatalf("after a kept one: %s, want %s", got, want)
	}
	push(n("notifications/message", `"d3"`)) // d2 goes
	if got, want := contents(), `"k1" "k2" "d3"`; got != want {
		t.Fatalf("after a droppable one: %s, want %s", got, want)
	}
	push(n("notifications/tools/list_changed", `"c"`)) // d3 goes
	push(n("notifications/tools/list_changed", `"c"`)) // folded into the first
	if got, want := contents(), `"k1" "k2" "c"`; got != want {
		t.Fatalf("after two equal list_changed: %s, want %s", got, want)
	}
	push(n("notifications/message", `"d4"`)) // nothing droppable queued: d4 goes
	if got, want := contents(), `"k1" "k2" "c"`; got != want {
		t.Fatalf("after a droppable one into a full queue of kept ones: %s, want %s", got, want)
	}
	push(n("notifications/tasks/status", `"k3"`)) // the oldest of all goes
	if got, want := contents(), `"k2" "c" "k3"`; got != want {
		t.Fatalf("after a kept one into a full queue of kept ones: %s, want %s", got, want)
	}
	// A list_changed with other params (another subscription's tag) is
	// not folded: it takes a slot like any other.
	push(n("notifications/tools/list_changed", `"other"`))
	if got, want := contents(), `"c" "k3" "other"`; got != want {
		t.Fatalf("after a list_changed with other params: %s, want %s", got, want)
	}
	if q.stats.Dropped != 6 || q.stats.Coalesced != 1 || q.takeUnreported() != 6 {
		t.Fatalf("stats %+v, want 6 dropped and 1 coalesced", q.stats)
	}
	if q.stats.PeakLength != 3 {
		t.Fatalf("peak length %d, want 3", q.stats.PeakLength)
	}
	wantBytes := 0
	for _, e := range q.buf[q.head:] {
		wantBytes += noteSize(e.n.Method, e.n.Params)
	}
	if q.bytes != wantBytes {
		t.Fatalf("bytes %d, want %d", q.bytes, wantBytes)
	}
	for q.len() > 0 {
		q.pop()
	}
	if q.bytes != 0 || q.droppable != 0 || q.coalesced != 0 {
		t.Fatalf("an emptied queue counts %d bytes, %d droppable, %d coalesced", q.bytes, q.droppable, q.coalesced)
	}
}

// TestOneLargeNotificationPasses: a notification larger than the byte
// bound still reaches an empty queue, so one big message is not lost.
func TestOneLargeNotificationPasses(t *testing.T) {
	var q noteQueue
	big := &Notification{Method: "notifications/message", Params: json.RawMessage(`"` + strings.Repeat("x", 2000) + `"`)}
	q.push(big, Droppable, QueueLimits{Length: 10, Bytes: 1000})
	if q.len() != 1 || q.stats.Dropped != 0 {
		t.Fatalf("queued %d, dropped %d; want the one large notification queued", q.len(), q.stats.Dropped)
	}
}

// TestCallProgressBounded floods progress for a call whose OnProgress is
// stuck: what waits for it stays bounded, the drops are counted, and the
// newest progress still reaches the callback before the call returns.
func TestCallProgressBounded(t *testing.T) {
	run(t, func(t *testing.T, m readMode) {
		limits := QueueLimits{Length: 8, Bytes: 1 << 20}
		c, p := newTestConn(t, m, Options{Queue: limits})
		entered, release := make(chan struct{}), make(chan struct{})
		var seen []float64
		onProgress := func(pr Progress) {
			seen = append(seen, pr.Progress)
			if len(seen) == 1 {
				close(entered)
				<-release
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{Timeout: NoTimeout, OnProgress: onProgress})
			done <- err
		}()
		req := p.recvRequest()
		progress := func(v int) {
			p.send(&Notification{Method: MethodProgress, Params: json.RawMessage(fmt.Sprintf(`{"progressToken":%s,"progress":%d}`, req.ID, v))})
		}
		progress(0)
		<-entered
		const flood = 1000
		for i := 1; i < flood; i++ {
			progress(i)
		}
		// A response after the flood: once the engine read it, the whole
		// flood was read too, while the caller is still in OnProgress.
		p.reply(req, `{}`)
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		st := c.QueueStats()
		if len(seen) > 1+limits.Length+1 {
			t.Errorf("OnProgress ran %d times; at most %d progress may wait", len(seen), limits.Length+1)
		}
		if len(seen)+int(st.Dropped) != flood {
			t.Errorf("%d delivered + %d dropped, want %d", len(seen), st.Dropped, flood)
		}
		if seen[len(seen)-1] != flood-1 {
			t.Errorf("the last progress delivered is %v, want %d (the newest is never dropped)", seen[len(seen)-1], flood-1)
		}
	})
}
