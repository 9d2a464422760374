package mcp

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// gets counts the GET requests (listeners) the server received.
func gets(hs *mcptest.HTTPServer) int {
	n := 0
	for _, r := range hs.Requests() {
		if r.Method == http.MethodGet {
			n++
		}
	}
	return n
}

func TestListenerOpensOnlyWhenUseful(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts ClientOptions
		want int
	}{
		{"nothing to take", ClientOptions{}, 0},
		{"a notification callback", ClientOptions{OnToolsListChanged: func(context.Context) {}}, 1},
		{"a raw callback", ClientOptions{OnNotification: func(context.Context, *Notification) {}}, 1},
		{"roots to answer", ClientOptions{Roots: func(context.Context) ([]Root, error) { return nil, nil }}, 1},
		{"elicitations to answer", ClientOptions{Elicitation: func(context.Context, *ElicitRequest) (*ElicitResult, error) { return nil, nil }}, 1},
	} {
		for _, dial := range []struct {
			name string
			tr   func(url string) transport.Transport
		}{
			{"streamable", func(url string) transport.Transport { return &transport.StreamableHTTP{URL: url} }},
			// The wrappers pass the hold on to Streamable HTTP.
			{"auto", func(url string) transport.Transport { return &transport.Auto{URL: url} }},
			{"recorded", func(url string) transport.Transport {
				return transport.Record(&transport.StreamableHTTP{URL: url}, transport.NewRecorder(io.Discard), "")
			}},
		} {
			t.Run(tc.name+"/"+dial.name, func(t *testing.T) {
				hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
				opts := tc.opts
				opts.ProtocolVersion = LatestLegacyProtocolVersion // the listener is of the legacy era
				c, err := Connect(t.Context(), dial.tr(hs.URL), &opts)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				// Connect returns once an opened listener has its reply headers.
				if got := gets(hs); got != tc.want {
					t.Errorf("GET requests after Connect: %d, want %d", got, tc.want)
				}
			})
		}
	}
}

func TestListenerOpensForALateSubscriber(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	hs := mcptest.NewHTTPServer(t, srv, nil)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, &ClientOptions{ProtocolVersion: LatestLegacyProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := gets(hs); n != 0 {
		t.Fatalf("%d GET requests with nothing to take them", n)
	}
	arrived := make(chan string, 1)
	c.OnNotification(NotificationToolsListChanged, func(_ context.Context, n *Notification) { arrived <- n.Method })
	if n := gets(hs); n != 1 {
		t.Fatalf("GET requests after OnNotification returned: %d, want 1", n)
	}
	// Outside any request, the server can only speak on the listener.
	if !srv.RemoveTool("echo") {
		t.Fatal("the default server has no echo tool")
	}
	select {
	case m := <-arrived:
		if m != NotificationToolsListChanged {
			t.Errorf("got %s", m)
		}
	case <-t.Context().Done():
		t.Fatal("the notification sent on the listener did not arrive")
	}
	c.OnNotification("", func(context.Context, *Notification) {})
	if n := gets(hs); n != 1 {
		t.Errorf("GET requests after a second subscriber: %d, want still 1", n)
	}
}
