package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// announcingServer is a Streamable HTTP server (2025-11-25) that says
// notifications/tools/list_changed the moment it hears
// notifications/initialized, on its GET stream if one is open and nowhere
// otherwise, as servers built on the official SDKs do.
type announcingServer struct {
	mu        sync.Mutex
	stream    chan string // the open GET stream's events; nil when none
	announced bool        // the announcement found a GET stream
}

func (a *announcingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		events := make(chan string, 1)
		a.mu.Lock()
		a.stream = events
		a.mu.Unlock()
		serveEvents(w, r, events)
		return
	}
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusOK)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	body, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(body, &msg)
	switch msg.Method {
	case MethodInitialize:
		answerInitialize(w, msg.ID, `{"tools":{"listChanged":true}}`, "announcer")
	case NotificationInitialized:
		a.mu.Lock()
		if a.stream != nil {
			a.stream <- `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
			a.announced = true
		}
		a.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"error":{"code":-32601,"message":"no"}}`)
	}
}

// serveEvents answers a GET with an event stream and writes each of
// events' data as an event until the request ends.
func serveEvents(w http.ResponseWriter, r *http.Request, events <-chan string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	http.NewResponseController(w).Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case data := <-events:
			io.WriteString(w, "data: "+data+"\n\n")
			http.NewResponseController(w).Flush()
		}
	}
}

// answerInitialize answers initialize (request id) in JSON for
// 2025-11-25, with session s1 and the server capabilities caps.
func answerInitialize(w http.ResponseWriter, id json.RawMessage, caps, name string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Mcp-Session-Id", "s1")
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"protocolVersion":"2025-11-25",`+
		`"capabilities":`+caps+`,"serverInfo":{"name":"`+name+`","version":"1"}}}`)
}

// A list_changed the server sends as soon as it hears initialized is lost
// on the wire when no GET stream is open yet; the client makes up for it:
// OnToolsListChanged is called once the listener is open, before Connect
// returns, so the caller's re-list sees the change.
func TestListChangedRightAfterInitializedIsNotMissed(t *testing.T) {
	a := &announcingServer{}
	hs := httptest.NewServer(a)
	defer hs.Close()
	heard := make(chan struct{}, 2)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, &ClientOptions{
		ProtocolVersion:    LatestLegacyProtocolVersion,
		OnToolsListChanged: func(ctx context.Context) { heard <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a.mu.Lock()
	announced := a.announced
	a.mu.Unlock()
	if announced {
		// The announcement travelled: the callback hears it on its own.
		<-heard
		return
	}
	select {
	case <-heard:
	default:
		t.Fatal("the server's announcement was lost and OnToolsListChanged was not called before Connect returned")
	}
}

// Over stdio nothing is lost, and nothing is made up.
func TestNoListChangedMadeUpOverAPipe(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	heard := make(chan struct{}, 1)
	connectMCPTest(t, srv, &ClientOptions{OnToolsListChanged: func(context.Context) { heard <- struct{}{} }})
	select {
	case <-heard:
		t.Fatal("OnToolsListChanged was called though the server announced nothing")
	default:
	}
}
