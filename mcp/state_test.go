package mcp

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// After a Streamable HTTP session expires and is renewed, the client
// subscribes again and sets the log level again on the new session before
// anything else reaches it; an update of the subscribed resource then
// arrives.
func TestStateSurvivesSessionRenewal(t *testing.T) {
	t.Run("streamable", func(t *testing.T) {
		testStateSurvivesRenewal(t, func(url string) transport.Transport { return &transport.StreamableHTTP{URL: url} })
	})
	t.Run("auto", func(t *testing.T) {
		testStateSurvivesRenewal(t, func(url string) transport.Transport { return &transport.Auto{URL: url} })
	})
	t.Run("recorded", func(t *testing.T) {
		testStateSurvivesRenewal(t, func(url string) transport.Transport {
			return transport.Record(&transport.StreamableHTTP{URL: url}, transport.NewRecorder(io.Discard), "")
		})
	})
}

func testStateSurvivesRenewal(t *testing.T, dial func(url string) transport.Transport) {
	hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	updated := make(chan string, 4)
	ctx := t.Context()
	c, err := Connect(ctx, dial(hs.URL), &ClientOptions{
		ProtocolVersion:   LatestLegacyProtocolVersion, // sessions are of the legacy era
		OnResourceUpdated: func(_ context.Context, u ResourceUpdated) { updated <- u.URI },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetLogLevel(ctx, LevelWarning); err != nil {
		t.Fatal(err)
	}
	if err := c.SubscribeResource(ctx, mcptest.HelloURI); err != nil {
		t.Fatal(err)
	}
	if st := c.SessionState(); !slices.Equal(st.Subscriptions, []string{mcptest.HelloURI}) || st.LogLevel != LevelWarning {
		t.Errorf("SessionState = %+v", st)
	}

	hs.Streamable.ExpireAllSessions()
	before := len(hs.Requests())
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("Ping on the expired session: %v", err)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the session ended: %v", err)
	}
	// The POSTs since the expiry, by JSON-RPC method: the ping that met
	// the 404, the renewal's handshake, then the state, then the ping
	// again.
	var methods []string
	for _, r := range hs.Requests()[before:] {
		var m struct {
			Method string `json:"method"`
		}
		if r.Method == "POST" && json.Unmarshal(r.Body, &m) == nil && m.Method != "" {
			methods = append(methods, m.Method)
		}
	}
	want := []string{MethodPing, MethodInitialize, NotificationInitialized, MethodLoggingSetLevel, MethodResourcesSubscribe, MethodPing}
	if !slices.Equal(methods, want) {
		t.Fatalf("POSTs after the expiry:\n got %s\nwant %s", strings.Join(methods, " "), strings.Join(want, " "))
	}

	if _, err := c.CallTool(ctx, "touch", map[string]string{"uri": mcptest.HelloURI}, nil); err != nil {
		t.Fatal(err)
	}
	if uri := <-updated; uri != mcptest.HelloURI {
		t.Errorf("updated %q", uri)
	}
}
