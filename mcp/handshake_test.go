package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestHandshakeAcceptsEverySupportedVersion(t *testing.T) {
	for _, v := range ProtocolVersions() {
		t.Run(v, func(t *testing.T) {
			s := newFakeServer(t)
			s.version = v
			s.instructions = "use the tools wisely"
			s.caps = ServerCapabilities{Tools: &ToolsCapability{ListChanged: true}, Logging: &EmptyObject{}}
			c := connect(t, s, nil)

			if got := c.ProtocolVersion(); got != v {
				t.Errorf("ProtocolVersion() = %q, want %q", got, v)
			}
			want := Implementation{Name: "fake", Title: "Fake Server", Version: "1.2.3"}
			if got := c.ServerInfo(); !reflect.DeepEqual(got, want) {
				t.Errorf("ServerInfo() = %+v, want %+v", got, want)
			}
			if got := c.Instructions(); got != "use the tools wisely" {
				t.Errorf("Instructions() = %q", got)
			}
			caps := c.ServerCapabilities()
			if caps.Tools == nil || !caps.Tools.ListChanged || caps.Logging == nil || caps.Prompts != nil {
				t.Errorf("ServerCapabilities() = %+v", caps)
			}
			s.nextNote(t.Context(), NotificationInitialized)

			var p initializeParams
			if err := json.Unmarshal(<-s.initParams, &p); err != nil {
				t.Fatal(err)
			}
			if p.ProtocolVersion != LatestLegacyProtocolVersion {
				t.Errorf("offered %q, want %q", p.ProtocolVersion, LatestLegacyProtocolVersion)
			}
			if !reflect.DeepEqual(p.ClientInfo, Implementation{Name: "mcpwire", Version: LibraryVersion}) {
				t.Errorf("clientInfo = %+v, want the default", p.ClientInfo)
			}
		})
	}
}

func TestHandshakeRefusesUnsupportedVersion(t *testing.T) {
	s := newFakeServer(t)
	s.version = "2099-01-01"
	_, err := NewClient(t.Context(), s.start(), nil)
	var vErr *ProtocolVersionError
	if !errors.As(err, &vErr) || vErr.Server != "2099-01-01" {
		t.Fatalf("NewClient error = %v, want a ProtocolVersionError naming 2099-01-01", err)
	}
	if !strings.Contains(err.Error(), `"2099-01-01"`) || !strings.Contains(err.Error(), "2025-11-25") {
		t.Errorf("error %q should name the server's version and ours", err)
	}
	// The client closed the session: the server sees the pipe end.
	<-s.conn.Done()
}

func TestHandshakeShowsServersSupportedList(t *testing.T) {
	s := newFakeServer(t)
	s.initErr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Unsupported protocol version",
		Data: json.RawMessage(`{"supported":["2024-10-07","2023-05-01"],"requested":"2025-11-25"}`)}
	_, err := NewClient(t.Context(), s.start(), nil)
	var vErr *ProtocolVersionError
	if !errors.As(err, &vErr) {
		t.Fatalf("NewClient error = %v, want a ProtocolVersionError", err)
	}
	if want := []string{"2024-10-07", "2023-05-01"}; !slices.Equal(vErr.Supported, want) {
		t.Errorf("Supported = %q, want %q", vErr.Supported, want)
	}
	for _, part := range []string{`"2024-10-07"`, `"2023-05-01"`, `refused protocol version "2025-11-25"`} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %s", err, part)
		}
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("the server's *jsonrpc.Error should stay reachable, got %v", err)
	}
	<-s.conn.Done()
}

func TestHandshakeOtherErrors(t *testing.T) {
	cases := []struct {
		name   string
		answer func(context.Context, *jsonrpc.Request) (any, error)
		want   string
	}{
		{"internal error", func(context.Context, *jsonrpc.Request) (any, error) {
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "boom")
		}, "mcp: initialize: jsonrpc error -32603: boom"},
		{"-32602 without data", func(context.Context, *jsonrpc.Request) (any, error) {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "bad")
		}, "mcp: initialize: jsonrpc error -32602: bad"},
		{"no protocolVersion", func(context.Context, *jsonrpc.Request) (any, error) {
			return json.RawMessage(`{"capabilities":{},"serverInfo":{"name":"x","version":"1"}}`), nil
		}, "mcp: initialize: the result has no protocolVersion"},
		{"result not an object", func(context.Context, *jsonrpc.Request) (any, error) {
			return json.RawMessage(`["2025-11-25"]`), nil
		}, "mcp: initialize: the result is an array, not a JSON object"},
		{"result of the wrong shape", func(context.Context, *jsonrpc.Request) (any, error) {
			return json.RawMessage(`{"protocolVersion":2025}`), nil
		}, "mcp: initialize: decoding the result: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t)
			s.initialize = tc.answer
			_, err := NewClient(t.Context(), s.start(), nil)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("NewClient error = %v, want %q", err, tc.want)
			}
			var vErr *ProtocolVersionError
			if errors.As(err, &vErr) {
				t.Errorf("error %v is not about versions", err)
			}
			<-s.conn.Done()
		})
	}
}

func TestHandshakeHonoursContext(t *testing.T) {
	s := newFakeServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	s.initialize = func(hctx context.Context, _ *jsonrpc.Request) (any, error) {
		cancel() // the caller gives up while the server is thinking
		<-hctx.Done()
		return nil, hctx.Err()
	}
	_, err := NewClient(ctx, s.start(), nil)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "initialize") {
		t.Fatalf("NewClient error = %v, want context.Canceled naming initialize", err)
	}
	<-s.conn.Done()
}

func TestCapabilitiesDeclaredOnlyForSetHandlers(t *testing.T) {
	roots := func(context.Context) ([]Root, error) { return nil, nil }
	sampling := func(context.Context, *CreateMessageRequest) (*CreateMessageResult, error) { return nil, nil }
	elicit := func(context.Context, *ElicitRequest) (*ElicitResult, error) { return nil, nil }
	cases := []struct {
		name string
		opts *ClientOptions
		want string
	}{
		{"none", nil, `{}`},
		{"roots func", &ClientOptions{Roots: roots}, `{"roots":{"listChanged":true}}`},
		{"initial roots", &ClientOptions{InitialRoots: []Root{}}, `{"roots":{"listChanged":true}}`},
		{"sampling", &ClientOptions{Sampling: sampling}, `{"sampling":{}}`},
		{"sampling with tools and context", &ClientOptions{Sampling: sampling, SamplingTools: true, SamplingContext: true},
			`{"sampling":{"context":{},"tools":{}}}`},
		// A form handler alone declares form only: URL mode carries
		// consent duties a form-only agent never took on.
		{"elicitation form only", &ClientOptions{Elicitation: elicit}, `{"elicitation":{"form":{}}}`},
		{"elicitation url only", &ClientOptions{ElicitationURL: elicit}, `{"elicitation":{"url":{}}}`},
		{"elicitation both", &ClientOptions{Elicitation: elicit, ElicitationURL: elicit}, `{"elicitation":{"form":{},"url":{}}}`},
		{"extension", &ClientOptions{Extensions: map[string]json.RawMessage{"io.modelcontextprotocol/ui": json.RawMessage(`{"mimeTypes":["text/html;profile=mcp-app"]}`)}},
			`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`},
		{"all", &ClientOptions{Roots: roots, Sampling: sampling, Elicitation: elicit, ElicitationURL: elicit},
			`{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t)
			c := connect(t, s, tc.opts)
			var p struct {
				Capabilities json.RawMessage `json:"capabilities"`
			}
			if err := json.Unmarshal(<-s.initParams, &p); err != nil {
				t.Fatal(err)
			}
			if string(p.Capabilities) != tc.want {
				t.Errorf("capabilities = %s, want %s", p.Capabilities, tc.want)
			}
			got, _ := json.Marshal(c.ClientCapabilities())
			if string(got) != tc.want {
				t.Errorf("ClientCapabilities() = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestClientInfoOption(t *testing.T) {
	s := newFakeServer(t)
	info := Implementation{Name: "agent", Version: "9", Title: "My Agent"}
	connect(t, s, &ClientOptions{ClientInfo: info})
	var p initializeParams
	if err := json.Unmarshal(<-s.initParams, &p); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.ClientInfo, info) {
		t.Errorf("clientInfo = %+v, want %+v", p.ClientInfo, info)
	}
}

func TestBadOptionsCloseTheStream(t *testing.T) {
	cases := []struct {
		name string
		opts ClientOptions
		want string
	}{
		{"name missing", ClientOptions{ClientInfo: Implementation{Version: "1"}}, "ClientInfo.Name is empty"},
		{"version missing", ClientOptions{ClientInfo: Implementation{Name: "x"}}, "ClientInfo.Version is empty"},
		{"bad root", ClientOptions{InitialRoots: []Root{{URI: "https://example.com/"}}}, `InitialRoots: mcp: root 0 ("https://example.com/")`},
		{"extension settings not an object", ClientOptions{Extensions: map[string]json.RawMessage{"x.test/ext": json.RawMessage(`["a"]`)}},
			`Extensions["x.test/ext"]: the settings must be a JSON object`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t)
			_, err := NewClient(t.Context(), s.start(), &tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewClient error = %v, want one containing %q", err, tc.want)
			}
			<-s.conn.Done() // the stream was closed
			select {
			case <-s.initParams:
				t.Error("initialize was sent despite bad options")
			default:
			}
		})
	}
}

// versionRecorder wraps the client's end of the pipe and records the order
// of SetProtocolVersion and the messages written.
type versionRecorder struct {
	jsonrpc.Stream
	mu     sync.Mutex
	events []string
}

func (r *versionRecorder) SetProtocolVersion(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "SetProtocolVersion "+v)
}

func (r *versionRecorder) Write(ctx context.Context, m jsonrpc.Message) error {
	r.mu.Lock()
	switch m := m.(type) {
	case *jsonrpc.Request:
		r.events = append(r.events, "request "+m.Method)
	case *jsonrpc.Notification:
		r.events = append(r.events, "notification "+m.Method)
	}
	r.mu.Unlock()
	return r.Stream.Write(ctx, m)
}

func TestInitializedSentAfterSetProtocolVersion(t *testing.T) {
	s := newFakeServer(t)
	s.version = "2025-06-18"
	rec := &versionRecorder{Stream: s.start()}
	c, err := NewClient(t.Context(), rec, legacyUnlessPinned(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s.nextNote(t.Context(), NotificationInitialized)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := []string{"request initialize", "SetProtocolVersion 2025-06-18", "notification notifications/initialized"}
	if !slices.Equal(rec.events, want) {
		t.Errorf("events = %q, want %q", rec.events, want)
	}
}

// The exported list is the caller's copy: writing to it does not change
// what the client accepts.
func TestProtocolVersionsAreCopies(t *testing.T) {
	ProtocolVersions()[0] = "1999-01-01"
	if IsSupportedProtocolVersion("1999-01-01") || !IsSupportedProtocolVersion(LatestLegacyProtocolVersion) {
		t.Error("writing to the exported list changed what the client accepts")
	}
}
