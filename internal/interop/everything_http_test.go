package interop_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/interop"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// logWatch collects the server's notifications/message and signals when
// one contains a given text.
type logWatch struct {
	mu    sync.Mutex
	wants map[string]chan struct{}
}

func newLogWatch(texts ...string) *logWatch {
	w := &logWatch{wants: map[string]chan struct{}{}}
	for _, s := range texts {
		w.wants[s] = make(chan struct{})
	}
	return w
}

func (w *logWatch) onLog(_ context.Context, m mcp.LoggingMessage) {
	data := string(m.Data)
	w.mu.Lock()
	defer w.mu.Unlock()
	for text, ch := range w.wants {
		if strings.Contains(data, text) {
			delete(w.wants, text)
			close(ch)
		}
	}
}

func (w *logWatch) seen(text string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ch, ok := w.wants[text]; ok {
		return ch
	}
	done := make(chan struct{})
	close(done)
	return done
}

func TestEverythingStreamableHTTP(t *testing.T) {
	base := interop.StartEverythingHTTP(t, "streamableHttp")
	proxy := newRecordingProxy(t, base, "")
	ctx := withTimeout(t, 2*time.Minute)

	probe := newRootsProbe()
	// server-everything asks roots/list and then logs "Roots updated"; it
	// sends both on the standalone GET stream, so seeing them proves the
	// listener delivers server-initiated messages.
	logs := newLogWatch("Roots updated")
	client, err := mcp.Connect(ctx, &transport.StreamableHTTP{URL: proxy.srv.URL + "/mcp"},
		&mcp.ClientOptions{Roots: probe.roots, OnLogMessage: logs.onLog})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	exerciseEverything(t, ctx, client, probe)
	select {
	case <-logs.seen("Roots updated"):
	case <-ctx.Done():
		t.Fatal("no notifications/message arrived on the GET listener")
	}
	if err := client.Close(); err != nil {
		t.Errorf("close: %v", err)
	}

	// Close ends the session with DELETE, and the server forgets it.
	var session string
	for _, r := range proxy.requests() {
		if r.Method == http.MethodDelete {
			session = r.SessionID
			if r.Status/100 != 2 {
				t.Errorf("DELETE answered %d", r.Status)
			}
		}
	}
	if session == "" {
		t.Fatalf("no DELETE with a session id was sent on close; requests: %+v", proxy.requests())
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp",
		bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusNotFound {
		t.Errorf("the deleted session still answers: %d", resp.StatusCode)
	}
}

// TestEverythingStreamableHTTPResume cuts the GET listener's connection
// right after its first event with an id: the client must resume with a
// GET that carries Last-Event-ID, and the server's messages sent after the
// cut (its roots/list request, then a log message about the answer) must
// still arrive.
//
// Cutting a POST's reply stream instead is covered against mcptest and by
// the conformance suite's sse-retry scenario: server-everything accepts
// the resuming GET but never replays the rest of a POST's stream on it.
func TestEverythingStreamableHTTPResume(t *testing.T) {
	base := interop.StartEverythingHTTP(t, "streamableHttp")
	proxy := newRecordingProxy(t, base, http.MethodGet)
	ctx := withTimeout(t, 2*time.Minute)

	probe := newRootsProbe()
	logs := newLogWatch("Roots updated")
	client, err := mcp.Connect(ctx, &transport.StreamableHTTP{URL: proxy.srv.URL + "/mcp"},
		&mcp.ClientOptions{Roots: probe.roots, OnLogMessage: logs.onLog})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer client.Close()

	for what, ch := range map[string]<-chan struct{}{
		"the cut":                     proxy.cut,
		"roots/list":                  probe.asked,
		"the 'Roots updated' message": logs.seen("Roots updated"),
	} {
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v; requests: %+v", what, ctx.Err(), proxy.requests())
		}
	}
	resumed := false
	for _, r := range proxy.requests() {
		if r.Method == http.MethodGet && r.LastEventID != "" && r.Status == http.StatusOK {
			resumed = true
		}
	}
	if !resumed {
		t.Fatalf("no GET with Last-Event-ID after the cut; requests: %+v", proxy.requests())
	}
	if _, err := client.ListTools(ctx); err != nil {
		t.Fatalf("tools/list after the resume: %v", err)
	}
}

func TestEverythingLegacySSE(t *testing.T) {
	base := interop.StartEverythingHTTP(t, "sse")
	ctx := withTimeout(t, 2*time.Minute)
	for _, tc := range []struct {
		name string
		tr   transport.Transport
	}{
		{"sse", &transport.SSE{URL: base + "/sse"}},
		// A bare URL: Streamable HTTP is tried first and the legacy
		// server's 4xx to the POST moves the connection to SSE.
		{"auto", &transport.Auto{URL: base + "/sse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probe := newRootsProbe()
			client, err := mcp.Connect(ctx, tc.tr, &mcp.ClientOptions{Roots: probe.roots})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			exerciseEverything(t, ctx, client, probe)
			if err := client.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
}

// server-everything registers its conditional tools (roots, elicitation,
// sampling) when it hears notifications/initialized and announces
// tools/list_changed at once, before the client's GET listener is open:
// the client makes up for the lost announcement, so OnToolsListChanged is
// called and a re-list finds those tools.
func TestEverythingStreamableHTTPToolsListChangedAtStart(t *testing.T) {
	base := interop.StartEverythingHTTP(t, "streamableHttp")
	ctx := withTimeout(t, 2*time.Minute)
	heard := make(chan struct{}, 8)
	client, err := mcp.Connect(ctx, &transport.StreamableHTTP{URL: base + "/mcp"}, &mcp.ClientOptions{
		ProtocolVersion:    mcp.LatestLegacyProtocolVersion,
		OnToolsListChanged: func(context.Context) { heard <- struct{}{} },
		// Elicitation is what makes server-everything register its
		// elicitation tool on initialized.
		Elicitation: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
		},
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer client.Close()
	select {
	case <-heard:
	case <-ctx.Done():
		t.Fatal("OnToolsListChanged was not called for the tools server-everything registers on initialized")
	}
	tools, err := client.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range tools {
		found = found || tool.Name == "trigger-elicitation-request"
	}
	if !found {
		t.Errorf("the re-list lacks the tools registered on initialized: %d tools", len(tools))
	}
}
