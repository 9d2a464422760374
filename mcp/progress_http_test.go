package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// slowJSONToolServer is a Streamable HTTP server (2025-11-25) whose
// tools/call answers in plain JSON (not an event stream) after two
// seconds, sending notifications/progress every tenth of a second
// meanwhile on its GET stream: the call's idle deadline is moved by
// progress that does not travel on the POST.
type slowJSONToolServer struct {
	mu     sync.Mutex
	stream chan string   // the open GET stream's events; nil when none
	opened chan struct{} // closed once stream is set
	once   sync.Once
}

func (a *slowJSONToolServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		events := make(chan string, 8)
		a.mu.Lock()
		a.stream = events
		a.mu.Unlock()
		a.once.Do(func() { close(a.opened) })
		serveEvents(w, r, events)
		return
	case http.MethodDelete:
		w.WriteHeader(http.StatusOK)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		} `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(body, &msg)
	switch msg.Method {
	case MethodInitialize:
		answerInitialize(w, msg.ID, `{"tools":{}}`, "slow")
	case NotificationInitialized:
		w.WriteHeader(http.StatusAccepted)
	case MethodToolsCall:
		select {
		case <-a.opened:
		case <-r.Context().Done():
			return
		}
		a.mu.Lock()
		events := a.stream
		a.mu.Unlock()
		// Progress every tenth of a second for two seconds, ten times
		// more often than the client's one second idle deadline needs.
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := range 20 {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
			select {
			case events <- `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` +
				string(msg.Params.Meta.ProgressToken) + `,"progress":` + strconv.Itoa(i) + `}}`:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{"content":[{"type":"text","text":"done"}]}}`)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// A tool call answered in plain JSON after twice its idle deadline, with
// progress on the GET stream meanwhile, succeeds: the POST waiting for the
// reply is held to the deadline as progress moves it, not cut at the
// first one (which the engine then reported as a timeout). Real time over
// loopback: the transport's pooled POSTs must not enter a synctest bubble.
func TestToolCallProgressOnListenerKeepsJSONReplyAlive(t *testing.T) {
	hs := httptest.NewServer(&slowJSONToolServer{opened: make(chan struct{})})
	defer hs.Close()
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, &ClientOptions{
		ProtocolVersion: LatestLegacyProtocolVersion,
		// A notification callback: the GET listener opens.
		OnProgress: func(context.Context, ProgressNotification) {},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	progress := 0
	start := time.Now()
	res, err := c.CallTool(t.Context(), "slow", nil, &CallOptions{
		Timeout:    time.Second,
		OnProgress: func(context.Context, ProgressNotification) { progress++ },
	})
	switch {
	case err != nil:
		t.Fatalf("CallTool after %v (%d progress notifications): %v, want success (progress every 100ms kept the 1s idle deadline moving)", time.Since(start), progress, err)
	case len(res.Content) != 1:
		t.Errorf("CallTool: %d content blocks, want 1", len(res.Content))
	case progress == 0:
		t.Error("OnProgress never ran")
	}
}
