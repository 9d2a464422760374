package manager

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// The manager hands every server the same handlers; each request a
// handler sees names the server that asked.
func TestHandlersSeeWhichServerAsks(t *testing.T) {
	f := newFleet()
	defer f.close()
	f.add("alpha", nil)
	f.add("beta", nil)
	asked := make(chan string, 2)
	opts := &Options{Dial: f.dial, DisableCache: true, Client: &mcp.ClientOptions{
		Sampling: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			o, ok := mcp.OriginOf(ctx)
			if !ok || o.Client == nil {
				t.Errorf("the sampling ctx has no Origin: %+v, %v", o, ok)
			}
			asked <- o.Server
			return &mcp.CreateMessageResult{Content: mcp.SamplingContent{mcp.TextContent("ok")}, Model: "m"}, nil
		},
	}}
	m := NewServers([]*config.Server{pipeServer("alpha"), pipeServer("beta")}, opts)
	defer m.Close()
	ctx := t.Context()
	for _, name := range []string{"alpha", "beta"} {
		if _, err := m.CallServerTool(ctx, name, "sample", map[string]string{"prompt": "hi"}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	got := []string{<-asked, <-asked}
	sort.Strings(got)
	if strings.Join(got, ",") != "alpha,beta" {
		t.Errorf("the handler saw servers %q, want alpha and beta", got)
	}
}

// A child that dies is restarted with what its last connection set up:
// the subscription comes back, and an update of the resource arrives,
// named after its server.
func TestSubscriptionSurvivesReconnect(t *testing.T) {
	updates := make(chan string, 4)
	m := NewServers([]*config.Server{stdioServer("child", "crash:echo")}, &Options{DisableCache: true, Client: &mcp.ClientOptions{
		OnResourceUpdated: func(ctx context.Context, u mcp.ResourceUpdated) {
			o, _ := mcp.OriginOf(ctx)
			updates <- o.Server + " " + u.URI
		},
	}})
	defer m.Close()
	log := record(m)
	ctx, cancel := context.WithTimeout(t.Context(), realTimeout)
	defer cancel()
	c, err := m.Client(ctx, "child")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SubscribeResource(ctx, mcptest.HelloURI); err != nil {
		t.Fatal(err)
	}
	if err := c.SetLogLevel(ctx, mcp.LevelError); err != nil {
		t.Fatal(err)
	}
	_, err = m.CallTool(ctx, "mcp__child__echo", map[string]any{"message": "die"}, nil)
	managerError(t, err, "child", nil)
	log.waitFor(t, "child", Connected, 2)

	c2, err := m.Client(ctx, "child")
	if err != nil {
		t.Fatal(err)
	}
	if c2 == c {
		t.Fatal("the client did not change across the restart")
	}
	if st := c2.SessionState(); len(st.Subscriptions) != 1 || st.LogLevel != mcp.LevelError {
		t.Fatalf("state after the restart: %+v", st)
	}
	if _, err := m.CallTool(ctx, "mcp__child__touch", map[string]string{"uri": mcptest.HelloURI}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := <-updates, "child "+mcptest.HelloURI; got != want {
		t.Errorf("update %q, want %q", got, want)
	}
}
