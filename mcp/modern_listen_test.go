package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// listenWatch collects what a modern client's subscriptions/listen brings.
type listenWatch struct {
	acks    chan listenFilter
	tools   chan struct{}
	updated chan string
}

func newListenWatch() *listenWatch {
	return &listenWatch{acks: make(chan listenFilter, 16), tools: make(chan struct{}, 16), updated: make(chan string, 16)}
}

func (w *listenWatch) options() *ClientOptions {
	return modernWith(func(o *ClientOptions) {
		o.OnToolsListChanged = func(context.Context) { w.tools <- struct{}{} }
		o.OnResourceUpdated = func(_ context.Context, u ResourceUpdated) { w.updated <- u.URI }
		o.OnNotification = func(_ context.Context, n *Notification) {
			if n.Method == "notifications/subscriptions/acknowledged" {
				var p struct{ Notifications listenFilter }
				_ = json.Unmarshal(n.Params, &p)
				w.acks <- p.Notifications
			}
		}
	})
}

// The list_changed callbacks and SubscribeResource work in the modern era
// through subscriptions/listen, over a pipe and over HTTP.
func TestModernListen(t *testing.T) {
	for _, viaHTTP := range []bool{false, true} {
		name := map[bool]string{false: "pipe", true: "http"}[viaHTTP]
		t.Run(name, func(t *testing.T) {
			srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
			w := newListenWatch()
			var c *Client
			if viaHTTP {
				hs := mcptest.NewHTTPServer(t, srv, nil)
				var err error
				if c, err = Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, w.options()); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
			} else {
				c, _ = connectMCPTest(t, srv, w.options())
			}
			ctx := t.Context()
			if ack := <-w.acks; !ack.ToolsListChanged || len(ack.ResourceSubscriptions) != 0 {
				t.Fatalf("first listen acknowledged %+v", ack)
			}
			if _, err := c.CallTool(ctx, "add-tool", map[string]any{"name": "extra"}, nil); err != nil {
				t.Fatal(err)
			}
			<-w.tools

			if err := c.SubscribeResource(ctx, mcptest.HelloURI); err != nil {
				t.Fatal(err)
			}
			for ack := range w.acks {
				if slices.Contains(ack.ResourceSubscriptions, mcptest.HelloURI) {
					break
				}
			}
			if _, err := c.CallTool(ctx, "touch", map[string]any{"uri": mcptest.HelloURI}, nil); err != nil {
				t.Fatal(err)
			}
			if uri := <-w.updated; uri != mcptest.HelloURI {
				t.Errorf("updated %q", uri)
			}
			if st := c.SessionState(); !slices.Equal(st.Subscriptions, []string{mcptest.HelloURI}) {
				t.Errorf("SessionState %+v", st)
			}
		})
	}
}

// A listen that ends is opened again, and notifications flow once more.
func TestModernListenReopened(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	w := newListenWatch()
	c, _ := connectMCPTest(t, srv, w.options())
	<-w.acks
	srv.EndSubscriptions()
	<-w.acks // the listen was opened again
	if _, err := c.CallTool(t.Context(), "add-tool", map[string]any{"name": "extra"}, nil); err != nil {
		t.Fatal(err)
	}
	<-w.tools
}

// Notifications are routed by their subscriptionId: one tagged with an id
// that is not the open listen's (a replaced or ended one) is dropped, one
// tagged with the open listen's or not tagged is delivered.
func TestModernListenRoutedBySubscriptionID(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	type seen struct {
		method string
		tag    string
	}
	got := make(chan seen, 16)
	tools := make(chan struct{}, 16)
	_, session := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
		o.OnToolsListChanged = func(context.Context) { tools <- struct{}{} }
		o.OnNotification = func(_ context.Context, n *Notification) {
			var p struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			_ = json.Unmarshal(n.Params, &p)
			got <- seen{n.Method, string(p.Meta["io.modelcontextprotocol/subscriptionId"])}
		}
	}))
	ctx := t.Context()
	msg, err := session.WaitReceived(ctx, MethodSubscriptionsListen)
	if err != nil {
		t.Fatal(err)
	}
	open := msg.(*jsonrpc.Request).ID
	if ack := <-got; ack.method != NotificationSubscriptionsAcknowledged || ack.tag != open.String() {
		t.Fatalf("first notification %+v, want the acknowledgement tagged %s", ack, open)
	}
	tagged := func(id any) map[string]any {
		return map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/subscriptionId": id}}
	}
	for _, p := range []any{tagged(9999), tagged("stale"), tagged(open), nil} {
		if err := session.Notify(ctx, NotificationToolsListChanged, p); err != nil {
			t.Fatal(err)
		}
	}
	// In order: the two stale ones were dropped before the open listen's.
	if n := <-got; n.method != NotificationToolsListChanged || n.tag != open.String() {
		t.Fatalf("delivered %+v, want the one tagged %s", n, open)
	}
	if n := <-got; n.method != NotificationToolsListChanged || n.tag != "" {
		t.Fatalf("delivered %+v, want the untagged one", n)
	}
	<-tools
	<-tools
	select {
	case <-tools:
		t.Error("a stale notification reached OnToolsListChanged")
	default:
	}
}

func TestListenFilterNotGranted(t *testing.T) {
	asked := listenFilter{ToolsListChanged: true, PromptsListChanged: true, ResourceSubscriptions: []string{"a://x", "a://y"}}
	got := asked.notGranted(&listenFilter{ToolsListChanged: true, ResourceSubscriptions: []string{"a://x"}})
	if got != `promptsListChanged, updates of "a://y"` {
		t.Errorf("notGranted = %q", got)
	}
	if s := asked.notGranted(&asked); s != "" {
		t.Errorf("all granted, got %q", s)
	}
}

// Notification params come from the server: none may panic, and only a
// notification of a listen kind that carries a subscriptionId other than
// the open listen's is dropped.
func FuzzFromStaleListen(f *testing.F) {
	f.Add(NotificationToolsListChanged, []byte(`{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}`))
	f.Add(NotificationSubscriptionsAcknowledged, []byte(`{"_meta":{"io.modelcontextprotocol/subscriptionId":3},"notifications":{"toolsListChanged":false,"resourceSubscriptions":["a"]}}`))
	f.Add(NotificationResourceUpdated, []byte(`{"_meta":{"io.modelcontextprotocol/subscriptionId":null},"uri":"x"}`))
	f.Add(NotificationProgress, []byte(`{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}`))
	f.Fuzz(func(t *testing.T, method string, params []byte) {
		c := &Client{modern: &modernSession{}, opts: sessionOptions{sessionHandlers: &noHandlers}}
		c.listener().id = jsonrpc.Int64ID(3)
		c.listener().filter = listenFilter{ToolsListChanged: true, ResourceSubscriptions: []string{"a"}}
		dropped := c.fromStaleListen(&jsonrpc.Notification{Method: method, Params: params})
		if dropped && !bytes.Contains(params, []byte("subscriptionId")) {
			t.Fatalf("dropped an untagged %s: %s", method, params)
		}
		if dropped && !slices.Contains(listenNotifications, method) {
			t.Fatalf("dropped %s, which does not travel on a listen", method)
		}
	})
}
