package mcp

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// The flood tests: a server sends notifications as fast as it can while
// the client's callback is stuck. The queue stays within its bounds, every
// notification is delivered or counted as dropped (and reported), and a
// call made during the flood gets its answer.

const floodCount = 3000

var floodQueue = jsonrpc.QueueLimits{Length: 64, Bytes: 32 << 10}

// floodProbe holds the first flood notification in its callback until
// released, and counts what reaches the callbacks.
type floodProbe struct {
	entered, release chan struct{}
	once             sync.Once
	delivered        atomic.Int64 // flood notifications that reached the callback
	reported         atomic.Int64 // what OnNotificationsDropped was told
	marker           chan struct{}
	markerOnce       sync.Once
}

func newFloodProbe() *floodProbe {
	return &floodProbe{entered: make(chan struct{}), release: make(chan struct{}), marker: make(chan struct{})}
}

// arrived counts one flood notification; the first waits for release.
func (p *floodProbe) arrived() {
	p.delivered.Add(1)
	p.once.Do(func() {
		close(p.entered)
		<-p.release
	})
}

func (p *floodProbe) sawMarker() { p.markerOnce.Do(func() { close(p.marker) }) }

// options fills in the queue, the drop report and the callbacks of a
// flood carried by log messages.
func (p *floodProbe) options(o ClientOptions) *ClientOptions {
	o.NotificationQueue = floodQueue
	o.OnNotificationsDropped = func(_ context.Context, k int) { p.reported.Add(int64(k)) }
	o.OnLogMessage = func(_ context.Context, m LoggingMessage) {
		if strings.Contains(string(m.Data), "flood") {
			p.arrived()
		}
	}
	o.OnNotification = func(_ context.Context, n *Notification) {
		if n.Method == floodMarker {
			p.sawMarker()
		}
	}
	return &o
}

// floodMarker is a notification the queue keeps (it is not droppable)
// sent after a flood: once it is delivered, the whole flood was read.
const floodMarker = "mcptest/flood-done"

// checkHeld checks the queue while the callback still holds the first
// notification and the whole flood was read.
func checkHeld(t *testing.T, c *Client) jsonrpc.QueueStats {
	t.Helper()
	st := c.QueueStats()
	if st.PeakLength > floodQueue.Length || st.PeakBytes > floodQueue.Bytes {
		t.Errorf("the queue held up to %d notifications and %d bytes; bounds %d, %d", st.PeakLength, st.PeakBytes, floodQueue.Length, floodQueue.Bytes)
	}
	if st.Dropped == 0 {
		t.Errorf("%d notifications flooded a stuck callback and none were dropped: %+v", floodCount, st)
	}
	return st
}

// checkDelivered checks, once everything was delivered, that each flood
// notification was delivered or counted as dropped, and that the drops
// were reported.
func (p *floodProbe) checkDelivered(t *testing.T, c *Client) {
	t.Helper()
	st := c.QueueStats()
	if got := p.delivered.Load() + int64(st.Dropped); got != floodCount {
		t.Errorf("%d delivered + %d dropped = %d, want %d", p.delivered.Load(), st.Dropped, got, floodCount)
	}
	if p.reported.Load() != int64(st.Dropped) {
		t.Errorf("OnNotificationsDropped was told of %d drops; QueueStats counts %d", p.reported.Load(), st.Dropped)
	}
}

// floodByTool floods with the flood-notifications fault on echo, which
// puts the flood before the call's response on the same stream (stdio, or
// the POST's SSE reply): the call returns while the callback is stuck.
func floodByTool(t *testing.T, c *Client, p *floodProbe) {
	res, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "through the flood"}, nil)
	if err != nil || res.IsError || !strings.Contains(textOf(res), "through the flood") {
		t.Fatalf("a call answered behind %d notifications: %+v, %v", floodCount, res, err)
	}
	// The callbacks run on the queue's goroutine, which may not have
	// taken the first notification yet when the call returns: what the
	// order guarantees is that every flood notification was read (queued
	// or dropped) by then, not that one was delivered.
	select {
	case <-p.entered:
	case <-time.After(time.Minute): // a failure bound
		t.Fatal("the call returned, yet no flood notification reached the callback")
	}
	st := checkHeld(t, c)
	// The response came after the flood: every flood notification was
	// read by now. One is in the callback; the rest wait or were dropped.
	if got := 1 + st.Length + int(st.Dropped); got != floodCount {
		t.Errorf("1 delivering + %d queued + %d dropped = %d, want %d", st.Length, st.Dropped, got, floodCount)
	}
	close(p.release)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	p.checkDelivered(t, c)
}

func textOf(res *CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func floodFault() mcptest.Fault {
	return mcptest.Fault{Kind: mcptest.FaultFloodNotifications, Target: "echo", Size: floodCount}
}

// A real child process floods stdout.
func TestFloodStdio(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			child := mcptest.ChildCommand(floodFault().String())
			child.Env[mcptest.EnvEras] = era
			p := newFloodProbe()
			c, err := Connect(t.Context(), &transport.Command{Command: child.Path, Args: child.Args, Env: child.Env}, p.options(ClientOptions{}))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			floodByTool(t, c, p)
		})
	}
}

// Streamable HTTP: the flood comes on the POST's SSE reply.
func TestFloodHTTPReply(t *testing.T) {
	for _, era := range []struct {
		name string
		opts ClientOptions
	}{{"legacy", ClientOptions{ProtocolVersion: LatestLegacyProtocolVersion}}, {"modern", *modernPin}} {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			srv := mcptest.NewDefault(nil)
			srv.Fault(floodFault())
			hs := mcptest.NewHTTPServer(t, srv, nil)
			p := newFloodProbe()
			c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, p.options(era.opts))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			floodByTool(t, c, p)
		})
	}
}

// Streamable HTTP before 2026-07-28: the flood comes on the GET listener,
// and a call made meanwhile goes through.
func TestFloodHTTPListener(t *testing.T) {
	t.Parallel()
	srv := mcptest.NewDefault(nil)
	hs := mcptest.NewHTTPServer(t, srv, nil)
	p := newFloodProbe()
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, p.options(ClientOptions{ProtocolVersion: LatestLegacyProtocolVersion}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sessions := srv.Sessions()
	if len(sessions) != 1 {
		t.Fatalf("%d server sessions, want 1", len(sessions))
	}
	ss := sessions[0]
	flooded := make(chan error, 1)
	go func() {
		// Not related to a request: the standalone stream, that is the
		// GET listener.
		ctx := context.Background()
		for i := 1; i <= floodCount; i++ {
			if err := ss.Notify(ctx, NotificationMessage, map[string]any{"level": "info", "data": "flood " + strconv.Itoa(i)}); err != nil {
				flooded <- err
				return
			}
		}
		flooded <- ss.Notify(ctx, floodMarker, nil)
	}()
	<-p.entered
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatalf("a call during the flood: %v", err)
	}
	if err := <-flooded; err != nil {
		t.Fatal(err)
	}
	close(p.release)
	<-p.marker // kept by the queue, and after the whole flood
	checkHeld(t, c)
	p.checkDelivered(t, c)
}

// 2026-07-28: the flood of resource updates comes on the
// subscriptions/listen stream, and a call made meanwhile goes through.
func TestFloodListenStream(t *testing.T) {
	t.Parallel()
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	hs := mcptest.NewHTTPServer(t, srv, nil)
	p := newFloodProbe()
	opts := p.options(*modernPin)
	opts.OnLogMessage = nil
	opts.OnResourceUpdated = func(context.Context, ResourceUpdated) { p.arrived() }
	// A list_changed survives a full queue (it is folded, never dropped
	// for a droppable one): it marks the end of the flood.
	opts.OnToolsListChanged = func(context.Context) { p.sawMarker() }
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SubscribeResource(t.Context(), mcptest.HelloURI); err != nil {
		t.Fatal(err)
	}
	flooded := make(chan struct{})
	go func() {
		defer close(flooded)
		for range floodCount {
			srv.ResourceUpdated(mcptest.HelloURI)
		}
		srv.AddTool(mcptest.Tool{Name: "after-the-flood"}, nil)
	}()
	<-p.entered
	if _, err := c.CallTool(t.Context(), "add", map[string]any{"a": 1, "b": 2}, nil); err != nil {
		t.Fatalf("a call during the flood: %v", err)
	}
	<-flooded
	close(p.release)
	<-p.marker
	checkHeld(t, c)
	p.checkDelivered(t, c)
}
