package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// subscribedHost is a host of the era that subscribes to uri, and the
// channel its resources/updated notifications arrive on.
func subscribedHost(t *testing.T, g *Gateway, era, uri string) <-chan string {
	t.Helper()
	updated := make(chan string, 8)
	o := pinned(era)
	o.OnResourceUpdated = func(_ context.Context, u mcp.ResourceUpdated) { updated <- u.URI }
	c := host(t, g, o)
	if err := c.SubscribeResource(t.Context(), uri); err != nil {
		t.Fatalf("subscribe %s: %v", uri, err)
	}
	return updated
}

// awaitUpdate fails unless want arrives on updated. The deadline only
// bounds a failure: an update that never comes would otherwise hang.
func awaitUpdate(t *testing.T, updated <-chan string, want string) {
	t.Helper()
	wait, stop := context.WithTimeout(t.Context(), 30*time.Second)
	defer stop()
	select {
	case got := <-updated:
		if got != want {
			t.Errorf("updated: %q, want %q", got, want)
		}
	case <-wait.Done():
		t.Fatalf("no notifications/resources/updated for %s reached the host", want)
	}
}

// A 2026-07-28 host subscribes in its subscriptions/listen request: the
// gateway acknowledged the URI there but never subscribed the upstream,
// so the host waited for updates that could not come.
func TestModernHostSubscriptionReachesTheUpstream(t *testing.T) {
	up := server.NewServer(nil)
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "1"})
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	updated := subscribedHost(t, g, mcp.ModernProtocolVersion, "mem://doc")
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "2"}) // an update
	awaitUpdate(t, updated, "mem://doc")
}

// The mcpwire://SERVER/URI form names any URI of any server; a host that
// subscribed under it hears of updates under it, as it knows the
// resource, even where the server's URI is listed as is.
func TestUpdateReachesTheHostUnderTheFormItSubscribed(t *testing.T) {
	up := server.NewServer(nil)
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "1"})
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			updated := subscribedHost(t, g, era, "mcpwire://up/mem://doc")
			up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: era}) // an update
			awaitUpdate(t, updated, "mcpwire://up/mem://doc")
		})
	}
}

// An upstream that crashed and was reconnected by the manager is a new
// session that has no subscriptions: the gateway subscribes it again to
// what hosts still hold, or their updates stop for good.
func TestSubscriptionSurvivesTheUpstreamsReconnect(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			// A 2025-11-25 upstream, whose subscriptions are requests a
			// handler sees: each subscribing session comes on sessions.
			up := server.NewServer(&server.Options{Eras: server.LegacyOnly})
			up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "1"})
			up.AddTool(server.Tool{Name: "boom"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
				return server.TextResult("not reached"), nil
			})
			sessions := make(chan *server.Session, 4)
			up.HandleMethod("resources/subscribe", func(_ context.Context, ss *server.Session, _ json.RawMessage) (any, error) {
				sessions <- ss
				return struct{}{}, nil
			})
			g := newGateway(t, map[string]*server.Server{"up": up}, nil)
			updated := subscribedHost(t, g, era, "mem://doc")
			// Bounds only for failing: without the fix no subscribe reaches
			// the upstream (a 2026-07-28 host's listen) or its new session.
			wait, stop := context.WithTimeout(t.Context(), 30*time.Second)
			defer stop()
			var first *server.Session
			select {
			case first = <-sessions:
			case <-wait.Done():
				t.Fatal("the upstream was not subscribed")
			}
			up.Fault(server.Fault{Kind: server.FaultCrash, Target: "boom"})
			if res, err := host(t, g, nil).CallTool(t.Context(), "up__boom", nil, nil); err == nil && !res.IsError {
				t.Fatalf("the crashing call succeeded: %+v", res)
			}
			var second *server.Session
			select {
			case second = <-sessions:
			case <-wait.Done():
				t.Fatal("the reconnected upstream was not subscribed again")
			}
			if second == first {
				t.Fatal("subscribed twice on the crashed session")
			}
			// The update comes from the new session, as it would once it
			// holds the subscription.
			if err := second.Notify(t.Context(), mcp.NotificationResourceUpdated, map[string]string{"uri": "mem://doc"}); err != nil {
				t.Fatal(err)
			}
			awaitUpdate(t, updated, "mem://doc")
		})
	}
}

// Two hosts may hold one upstream resource under two URIs (as listed and
// in the mcpwire:// form): one unsubscribing must not end the upstream's
// subscription the other still needs.
func TestUnsubscribeKeepsAnotherHostsHold(t *testing.T) {
	up := server.NewServer(nil)
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "1"})
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	leaving := host(t, g, pinned("2025-11-25"))
	if err := leaving.SubscribeResource(t.Context(), "mem://doc"); err != nil {
		t.Fatal(err)
	}
	updated := subscribedHost(t, g, "2025-11-25", "mcpwire://up/mem://doc")
	if err := leaving.UnsubscribeResource(t.Context(), "mem://doc"); err != nil {
		t.Fatal(err)
	}
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "2"}) // an update
	awaitUpdate(t, updated, "mcpwire://up/mem://doc")
}

// A host that goes without unsubscribing (most do) lets go of its
// subscriptions: the upstream's ends with the last holder, as after an
// unsubscribe. Before, the gateway kept the ended session, and the
// upstream subscribed, until another host happened to subscribe to the
// same resource.
func TestEndedSessionLetsGoOfItsSubscriptions(t *testing.T) {
	up := server.NewServer(&server.Options{Eras: server.LegacyOnly})
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "1"})
	unsubscribed := make(chan string, 4)
	up.HandleMethod("resources/unsubscribe", func(_ context.Context, _ *server.Session, params json.RawMessage) (any, error) {
		unsubscribed <- string(params)
		return struct{}{}, nil
	})
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	updated := make(chan string, 8)
	hosts := map[string]*mcp.Client{}
	for _, uri := range []string{"mem://doc", "mcpwire://up/mem://doc"} {
		o := pinned("2025-11-25")
		o.OnResourceUpdated = func(_ context.Context, u mcp.ResourceUpdated) { updated <- u.URI }
		hosts[uri] = host(t, g, o)
		if err := hosts[uri].SubscribeResource(t.Context(), uri); err != nil {
			t.Fatal(err)
		}
	}
	if err := hosts["mem://doc"].Close(); err != nil {
		t.Fatal(err)
	}
	// The other host still holds the resource: an update reaches it.
	up.AddResource(server.Resource{URI: "mem://doc", Name: "doc", Text: "2"})
	awaitUpdate(t, updated, "mcpwire://up/mem://doc")
	if err := hosts["mcpwire://up/mem://doc"].Close(); err != nil {
		t.Fatal(err)
	}
	// A bound only for failing: without the fix the unsubscribe never comes.
	wait, stop := context.WithTimeout(t.Context(), 30*time.Second)
	defer stop()
	select {
	case p := <-unsubscribed:
		if !strings.Contains(p, "mem://doc") {
			t.Errorf("unsubscribed: %s", p)
		}
	case <-wait.Done():
		t.Fatal("the upstream stayed subscribed after every host that held the resource ended")
	}
	if n := len(unsubscribed); n != 0 {
		t.Errorf("%d more unsubscribes", n)
	}
}
