package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/mcpwire/mcpwire/transport"
)

// rawServer plays a server on the byte level over a line stream: the test
// says what each initialize is answered with, down to the bytes of one
// write.
func rawServer(t *testing.T, afterInit string) io.ReadWriteCloser {
	t.Helper()
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	go func() {
		defer fromServer.Close()
		lines := bufio.NewScanner(toServer)
		for lines.Scan() {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(lines.Bytes(), &req) != nil || req.Method != MethodInitialize {
				continue
			}
			reply := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":"` + LatestLegacyProtocolVersion +
				`","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"raw","version":"1"}}}` + "\n" + afterInit
			if _, err := io.WriteString(fromServer, reply); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { toServer.Close() })
	return struct {
		io.Reader
		io.Writer
		io.Closer
	}{clientIn, clientOut, clientOut}
}

// Notifications sent in the same write as the handshake reply reach the
// typed callbacks, with the Origin, and their ctx ends with the session.
func TestNotificationsInTheHandshakeWrite(t *testing.T) {
	early := `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t1","status":"working"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/x/custom","params":{"k":1}}` + "\n"
	rw := rawServer(t, early)
	type seen struct {
		what   string
		origin Origin
		ctx    context.Context
	}
	got := make(chan seen, 16)
	note := func(ctx context.Context, what string) {
		o, ok := OriginOf(ctx)
		if !ok {
			t.Errorf("%s: the ctx carries no Origin", what)
		}
		got <- seen{what, o, ctx}
	}
	c, err := NewClient(t.Context(), transport.NewStream(rw, rw, rw), &ClientOptions{
		ServerName:         "alpha",
		OnToolsListChanged: func(ctx context.Context) { note(ctx, "tools") },
		OnResourceUpdated:  func(ctx context.Context, u ResourceUpdated) { note(ctx, "updated "+u.URI) },
		OnLogMessage:       func(ctx context.Context, m LoggingMessage) { note(ctx, "log "+string(m.Data)) },
		OnTaskStatus:       func(ctx context.Context, tk Task) { note(ctx, "task "+tk.TaskID+" "+tk.Status) },
		OnNotification: func(ctx context.Context, n *Notification) {
			if n.Method == "notifications/x/custom" {
				note(ctx, "raw "+string(n.Params))
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var last context.Context
	for _, want := range []string{"tools", "updated file:///a", `log "hi"`, "task t1 working", `raw {"k":1}`} {
		s := <-got
		if s.what != want {
			t.Errorf("callback %q, want %q", s.what, want)
		}
		if s.origin.Server != "alpha" || s.origin.Client != c {
			t.Errorf("%s: origin %+v, want server alpha on this client", s.what, s.origin)
		}
		last = s.ctx
	}
	if last.Err() != nil {
		t.Errorf("callback ctx ended while the session is open: %v", last.Err())
	}
	c.Close()
	<-last.Done()
	if !errors.Is(last.Err(), context.Canceled) {
		t.Errorf("callback ctx after Close: %v", last.Err())
	}
}

// A handler's ctx carries the Origin too.
func TestHandlerOrigin(t *testing.T) {
	s := newFakeServer(t)
	origins := make(chan Origin, 1)
	c := connect(t, s, &ClientOptions{
		ServerName: "beta",
		Sampling: func(ctx context.Context, _ *CreateMessageRequest) (*CreateMessageResult, error) {
			o, _ := OriginOf(ctx)
			origins <- o
			return nil, ErrSamplingRejected
		},
	})
	_, err := serverCall(t, s, MethodSamplingCreateMessage, CreateMessageRequest{Messages: []SamplingMessage{{Role: RoleUser, Content: SamplingContent{TextContent("q")}}}, MaxTokens: 5})
	if err == nil {
		t.Fatal("the rejection did not reach the server")
	}
	if o := <-origins; o.Server != "beta" || o.Client != c {
		t.Errorf("origin %+v, want server beta on this client", o)
	}
	if _, ok := OriginOf(t.Context()); ok {
		t.Error("OriginOf found an Origin in a plain ctx")
	}
}
