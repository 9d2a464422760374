package manager

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// A subscriber's queue is bounded in bytes as well as in count: large
// notifications against a stuck subscriber never make it hold more than
// EventQueueBytes, and each one is delivered or counted as dropped.
func TestEventQueueBytesBound(t *testing.T) {
	const (
		flood      = 500
		size       = 10 << 10
		limitBytes = 64 << 10
	)
	h := &hub{limit: 1000, limitBytes: limitBytes}
	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	delivered, dropped := 0, 0
	unsubscribe := h.subscribe(func(e Event) {
		once.Do(func() {
			close(entered)
			<-release
		})
		switch e.Kind {
		case Notification:
			delivered++
		case Dropped:
			dropped += e.Dropped
		}
		if delivered+dropped == flood {
			close(done)
		}
	})
	defer unsubscribe()
	params := json.RawMessage(`"` + strings.Repeat("x", size) + `"`)
	peak := 0
	for i := range flood {
		h.publish(Event{Server: "a", Kind: Notification, Notification: &jsonrpc.Notification{Method: "notifications/message", Params: params}})
		if i == 0 {
			<-entered
		}
		s := h.subs[0]
		s.mu.Lock()
		peak = max(peak, s.queue.bytes)
		s.mu.Unlock()
	}
	if peak > limitBytes {
		t.Errorf("the queue held %d bytes; bound %d", peak, limitBytes)
	}
	if peak < limitBytes/2 {
		t.Errorf("the queue held at most %d bytes: the flood did not fill it", peak)
	}
	close(release)
	<-done
	if dropped == 0 || delivered+dropped != flood {
		t.Errorf("%d delivered + %d dropped, want %d with drops", delivered, dropped, flood)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
}

// When the callbacks that take a server's notifications fall behind, the
// server's connection drops the oldest droppable ones, and the manager
// says how many with a Dropped event naming the server.
func TestServerConnectionDropsReported(t *testing.T) {
	const flood = 2000
	f := newFleet()
	defer f.close()
	srv := f.add("a", nil)
	entered, release, marker := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	client := &mcp.ClientOptions{
		NotificationQueue: jsonrpc.QueueLimits{Length: 32},
		OnNotification: func(_ context.Context, n *mcp.Notification) {
			switch n.Method {
			case mcp.NotificationMessage:
				once.Do(func() {
					close(entered)
					<-release
				})
			case "test/flood-done":
				close(marker)
			}
		},
	}
	m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true, Client: client})
	defer m.Close()
	log := record(m)
	defer log.Close()
	m.Start(t.Context())
	log.waitFor(t, "a", Connected, 1)
	c, err := m.Client(t.Context(), "a")
	if err != nil {
		t.Fatal(err)
	}
	ss := srv.Sessions()[0]
	ctx := context.Background()
	for i := range flood {
		if err := ss.Notify(ctx, mcp.NotificationMessage, map[string]any{"level": "info", "data": "flood " + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			<-entered
		}
	}
	if err := ss.Notify(ctx, "test/flood-done", nil); err != nil {
		t.Fatal(err)
	}
	// A call goes through while the callback is stuck.
	if _, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "hi"}, nil); err != nil {
		t.Fatalf("a call during the flood: %v", err)
	}
	close(release)
	<-marker
	st := c.QueueStats()
	if st.Dropped == 0 || st.PeakLength > 32 {
		t.Fatalf("queue stats %+v: want drops and at most 32 queued", st)
	}
	// The report of the last drops comes before the marker's delivery;
	// the event log takes it soon after, maybe added into an earlier one.
	reported := 0
	for {
		events, n := 0, 0
		for _, e := range log.list("a") {
			if e.Kind == Dropped {
				events++
				n += e.Dropped
			}
		}
		if reported = n; reported >= int(st.Dropped) {
			break
		}
		log.waitFor(t, "a", Dropped, events+1)
	}
	if reported != int(st.Dropped) {
		t.Errorf("Dropped events of server a add up to %d; its connection dropped %d", reported, st.Dropped)
	}
}
