package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// fakeServer is the server end of a transport.Pipe, played by a
// jsonrpc.Conn whose answers each test scripts. Until mcptest exists this
// keeps the tests on the real engine and the real pipe framing.
type fakeServer struct {
	t    *testing.T
	conn *jsonrpc.Conn

	// Set before start.
	version      string // protocolVersion answered; "" echoes the offer
	caps         ServerCapabilities
	instructions string
	initErr      error // when set, initialize is answered with it
	// initialize, when set, replaces the scripted answer to initialize.
	initialize func(ctx context.Context, req *jsonrpc.Request) (any, error)
	handlers   map[string]jsonrpc.Handler

	// initParams receives the raw params of initialize.
	initParams chan json.RawMessage
	// notes receives every notification from the client, in order.
	notes chan *jsonrpc.Notification
}

// allServerCapabilities is what the fake server declares unless a test
// sets caps: every feature, so that no method is refused as unsupported.
var allServerCapabilities = ServerCapabilities{
	Tools:       &ToolsCapability{ListChanged: true},
	Prompts:     &PromptsCapability{ListChanged: true},
	Resources:   &ResourcesCapability{Subscribe: true, ListChanged: true},
	Logging:     &EmptyObject{},
	Completions: &EmptyObject{},
}

func newFakeServer(t *testing.T) *fakeServer {
	return &fakeServer{
		t:          t,
		caps:       allServerCapabilities,
		handlers:   map[string]jsonrpc.Handler{},
		initParams: make(chan json.RawMessage, 1),
		notes:      make(chan *jsonrpc.Notification, 64),
	}
}

// on scripts the answer to method.
func (s *fakeServer) on(method string, h func(ctx context.Context, req *jsonrpc.Request) (any, error)) {
	s.handlers[method] = func(ctx context.Context, _ *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
		return h(ctx, req)
	}
}

// start runs the server on a fresh pipe and returns the client's end.
func (s *fakeServer) start() jsonrpc.Stream {
	s.t.Helper()
	clientEnd, serverEnd := transport.Pipe()
	s.conn = jsonrpc.NewConn(serverEnd, jsonrpc.Options{
		Handler: s.handle,
		ErrorHook: func(err error) {
			// A response racing the client's Close may be reported
			// as unsent although it arrived; anything else is a bug.
			if !errors.Is(err, jsonrpc.ErrClosed) {
				s.t.Errorf("server error hook: %v", err)
			}
		},
	})
	s.conn.Subscribe("", func(n *jsonrpc.Notification) {
		select {
		case s.notes <- n:
		default:
			s.t.Errorf("server: notification %s dropped, test buffer full", n.Method)
		}
	})
	s.t.Cleanup(func() { s.conn.Close() })
	return clientEnd
}

func (s *fakeServer) handle(ctx context.Context, c *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
	if req.Method == MethodInitialize {
		s.initParams <- append(json.RawMessage(nil), req.Params...)
		if s.initialize != nil {
			return s.initialize(ctx, req)
		}
		if s.initErr != nil {
			return nil, s.initErr
		}
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		v := s.version
		if v == "" {
			v = p.ProtocolVersion
		}
		return InitializeResult{
			ProtocolVersion: v,
			Capabilities:    s.caps,
			ServerInfo:      Implementation{Name: "fake", Title: "Fake Server", Version: "1.2.3"},
			Instructions:    s.instructions,
		}, nil
	}
	if h, ok := s.handlers[req.Method]; ok {
		return h(ctx, c, req)
	}
	return nil, jsonrpc.ErrMethodNotFound
}

// nextNote waits for the next notification of method, skipping others.
func (s *fakeServer) nextNote(ctx context.Context, method string) *jsonrpc.Notification {
	s.t.Helper()
	for {
		select {
		case n := <-s.notes:
			if n.Method == method {
				return n
			}
		case <-ctx.Done():
			s.t.Fatalf("no %s reached the server: %v", method, ctx.Err())
			return nil
		}
	}
}

// connect starts s and runs the handshake with opts.
func connect(t *testing.T, s *fakeServer, opts *ClientOptions) *Client {
	t.Helper()
	c, err := NewClient(t.Context(), s.start(), legacyUnlessPinned(opts)) // a legacy fake
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
