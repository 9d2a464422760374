package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// serverCall makes the fake server call the client and returns the raw
// result or the error.
func serverCall(t *testing.T, s *fakeServer, method string, params any) (json.RawMessage, error) {
	t.Helper()
	return s.conn.Call(t.Context(), method, params, nil)
}

func wantRPCError(t *testing.T, err error, code int64, text string) {
	t.Helper()
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != code || !strings.Contains(rpcErr.Message, text) {
		t.Errorf("error = %v, want code %d with %q", err, code, text)
	}
}

func TestPingIsAnswered(t *testing.T) {
	s := newFakeServer(t)
	connect(t, s, nil)
	res, err := serverCall(t, s, MethodPing, nil)
	if err != nil || string(res) != "{}" {
		t.Errorf("ping = %s, %v; want {}", res, err)
	}
}

func TestPingAnsweredMidHandshake(t *testing.T) {
	s := newFakeServer(t)
	s.initialize = func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		// Before answering initialize, the server checks the client is alive.
		if _, err := s.conn.Call(ctx, MethodPing, nil, nil); err != nil {
			return nil, err
		}
		return InitializeResult{ProtocolVersion: LatestLegacyProtocolVersion, ServerInfo: Implementation{Name: "s", Version: "1"}}, nil
	}
	connect(t, s, nil)
}

func TestUndeclaredFeaturesAreMethodNotFound(t *testing.T) {
	s := newFakeServer(t)
	connect(t, s, nil)
	for _, m := range []string{MethodRootsList, MethodSamplingCreateMessage, MethodElicitationCreate, "tasks/list", "bogus"} {
		_, err := serverCall(t, s, m, map[string]any{})
		wantRPCError(t, err, jsonrpc.CodeMethodNotFound, m)
	}
}

func TestRootsFromInitialRootsAndSetRoots(t *testing.T) {
	s := newFakeServer(t)
	c := connect(t, s, &ClientOptions{InitialRoots: []Root{{URI: "file:///work", Name: "work"}}})
	ctx := t.Context()
	res, err := serverCall(t, s, MethodRootsList, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"roots":[{"uri":"file:///work","name":"work"}]}`))

	if err := c.SetRoots(ctx, []Root{{URI: "file:///a"}, {URI: "file:///b"}}); err != nil {
		t.Fatal(err)
	}
	s.nextNote(ctx, NotificationRootsListChanged)
	res, err = serverCall(t, s, MethodRootsList, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}`))

	// No roots is an empty list, not null.
	if err := c.SetRoots(ctx, nil); err != nil {
		t.Fatal(err)
	}
	res, _ = serverCall(t, s, MethodRootsList, nil)
	assertSameJSON(t, res, []byte(`{"roots":[]}`))

	if err := c.SetRoots(ctx, []Root{{URI: "/no/scheme"}}); err == nil || !strings.Contains(err.Error(), `root 0 ("/no/scheme"): URI must start with file://`) {
		t.Errorf("SetRoots with a bad URI: %v", err)
	}
}

func TestRootsFromHandler(t *testing.T) {
	s := newFakeServer(t)
	roots := []Root{{URI: "file:///repo"}}
	c := connect(t, s, &ClientOptions{Roots: func(context.Context) ([]Root, error) { return roots, nil }})
	res, err := serverCall(t, s, MethodRootsList, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"roots":[{"uri":"file:///repo"}]}`))

	if err := c.SetRoots(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "call NotifyRootsChanged") {
		t.Errorf("SetRoots with a Roots handler: %v", err)
	}
	roots = []Root{{URI: "https://not-a-file"}}
	_, err = serverCall(t, s, MethodRootsList, nil)
	wantRPCError(t, err, jsonrpc.CodeInternalError, "URI must start with file://")
	if err := c.NotifyRootsChanged(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.nextNote(t.Context(), NotificationRootsListChanged)
}

func TestRootsNotDeclared(t *testing.T) {
	s := newFakeServer(t)
	c := connect(t, s, nil)
	if err := c.SetRoots(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "did not declare roots") {
		t.Errorf("SetRoots: %v", err)
	}
	if err := c.NotifyRootsChanged(t.Context()); err == nil {
		t.Error("NotifyRootsChanged without roots succeeded")
	}
}

func TestSamplingHandler(t *testing.T) {
	s := newFakeServer(t)
	got := make(chan *CreateMessageRequest, 1)
	connect(t, s, &ClientOptions{
		SamplingTools: true,
		Sampling: func(_ context.Context, req *CreateMessageRequest) (*CreateMessageResult, error) {
			got <- req
			if req.SystemPrompt == "reject" {
				return nil, ErrSamplingRejected
			}
			if req.SystemPrompt == "reject-wrapped" {
				return nil, fmt.Errorf("the user said no: %w", ErrSamplingRejected)
			}
			if req.SystemPrompt == "nothing" {
				return nil, nil
			}
			return &CreateMessageResult{
				Content:    SamplingContent{{Type: ContentToolUse, ID: "u1", Name: "lookup", Input: json.RawMessage(`{"q":"x"}`)}},
				Model:      "test-model",
				StopReason: StopToolUse,
			}, nil
		},
	})
	res, err := serverCall(t, s, MethodSamplingCreateMessage, json.RawMessage(`{
		"messages":[{"role":"user","content":[{"type":"text","text":"What is x?"}]}],
		"maxTokens":50,"tools":[{"name":"lookup","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto"},
		"modelPreferences":{"hints":[{"name":"claude"}],"speedPriority":0.2}}`))
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"role":"assistant","content":{"type":"tool_use","id":"u1","name":"lookup","input":{"q":"x"}},"model":"test-model","stopReason":"toolUse"}`))
	req := <-got
	if len(req.Messages) != 1 || req.Messages[0].Content[0].Text != "What is x?" || req.MaxTokens != 50 ||
		len(req.Tools) != 1 || req.ToolChoice.Mode != "auto" || req.ModelPreferences.Hints[0].Name != "claude" {
		t.Errorf("request = %+v", req)
	}

	_, err = serverCall(t, s, MethodSamplingCreateMessage, map[string]any{"messages": []any{}, "maxTokens": 1, "systemPrompt": "reject"})
	wantRPCError(t, err, jsonrpc.CodeUserRejected, "rejected")
	if !errors.Is(err, ErrSamplingRejected) {
		t.Errorf("errors.Is(%v, ErrSamplingRejected) = false for the peer's -1", err)
	}
	<-got
	_, err = serverCall(t, s, MethodSamplingCreateMessage, map[string]any{"messages": []any{}, "maxTokens": 1, "systemPrompt": "reject-wrapped"})
	wantRPCError(t, err, jsonrpc.CodeUserRejected, "")
	if !errors.Is(err, ErrSamplingRejected) {
		t.Errorf("a wrapped rejection went out as %v", err)
	}
	<-got
	_, err = serverCall(t, s, MethodSamplingCreateMessage, map[string]any{"messages": []any{}, "maxTokens": 1, "systemPrompt": "nothing"})
	wantRPCError(t, err, jsonrpc.CodeInternalError, "no result")
	<-got
	_, err = serverCall(t, s, MethodSamplingCreateMessage, json.RawMessage(`{"messages":[{"role":"user","content":{"type":"image"}}]}`))
	wantRPCError(t, err, jsonrpc.CodeInvalidParams, `image content block without "data"`)
	_, err = serverCall(t, s, MethodSamplingCreateMessage, nil)
	wantRPCError(t, err, jsonrpc.CodeInvalidParams, "params are missing")
}

func TestServerCancelReachesHandler(t *testing.T) {
	s := newFakeServer(t)
	started := make(chan struct{})
	cancelled := make(chan error, 1)
	connect(t, s, &ClientOptions{
		Sampling: func(ctx context.Context, _ *CreateMessageRequest) (*CreateMessageResult, error) {
			close(started)
			<-ctx.Done()
			cancelled <- ctx.Err()
			return nil, ctx.Err()
		},
	})
	callCtx, stopCall := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := s.conn.Call(callCtx, MethodSamplingCreateMessage, map[string]any{"messages": []any{}, "maxTokens": 1}, nil)
		done <- err
	}()
	<-started
	// The server cancels its request; its engine numbers requests from 1.
	// (The notice is sent by hand rather than by cancelling callCtx: the
	// pipe's writer may not yet have confirmed the request, and a caller
	// that gives up then breaks the writer; see the report on jsonl.)
	if err := s.conn.Notify(t.Context(), NotificationCancelled, map[string]any{"requestId": 1, "reason": "user stop"}); err != nil {
		t.Fatal(err)
	}
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("handler ctx ended with %v", err)
	}
	stopCall()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("server call = %v, want no answer to a cancelled request", err)
	}
}

func TestElicitationHandler(t *testing.T) {
	s := newFakeServer(t)
	got := make(chan *ElicitRequest, 4)
	handler := func(_ context.Context, req *ElicitRequest) (*ElicitResult, error) {
		got <- req
		switch req.Message {
		case "form":
			defaults, err := ElicitationDefaults(req.RequestedSchema)
			return &ElicitResult{Action: ElicitAccept, Content: defaults}, err
		case "url":
			return &ElicitResult{Action: ElicitAccept, Content: map[string]any{"dropped": true}}, nil
		case "decline":
			return &ElicitResult{Action: ElicitDecline, Content: map[string]any{"dropped": true}}, nil
		}
		return &ElicitResult{Action: "maybe"}, nil
	}
	connect(t, s, &ClientOptions{Elicitation: handler, ElicitationURL: handler})
	// Mode left out means form.
	res, err := serverCall(t, s, MethodElicitationCreate, json.RawMessage(`{"message":"form","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ada"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"action":"accept","content":{"name":"Ada"}}`))
	if req := <-got; req.Mode != ElicitModeForm {
		t.Errorf("mode = %q, want form", req.Mode)
	}
	// A URL accept carries no content.
	res, err = serverCall(t, s, MethodElicitationCreate, ElicitRequest{Mode: ElicitModeURL, Message: "url", URL: "https://example.com/auth", ElicitationID: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"action":"accept"}`))
	if req := <-got; req.URL != "https://example.com/auth" || req.ElicitationID != "e1" {
		t.Errorf("url request = %+v", req)
	}
	res, err = serverCall(t, s, MethodElicitationCreate, ElicitRequest{Message: "decline"})
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, res, []byte(`{"action":"decline"}`))
	<-got
	_, err = serverCall(t, s, MethodElicitationCreate, ElicitRequest{Message: "odd"})
	wantRPCError(t, err, jsonrpc.CodeInternalError, `action "maybe"`)
	<-got
	_, err = serverCall(t, s, MethodElicitationCreate, json.RawMessage(`{"message":7}`))
	wantRPCError(t, err, jsonrpc.CodeInvalidParams, "elicitation/create: invalid params")
}

func TestElicitationUndeclaredMode(t *testing.T) {
	s := newFakeServer(t)
	called := make(chan struct{}, 1)
	connect(t, s, &ClientOptions{
		Elicitation: func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			called <- struct{}{}
			return &ElicitResult{Action: ElicitCancel}, nil
		},
	})
	_, err := serverCall(t, s, MethodElicitationCreate, ElicitRequest{Mode: ElicitModeURL, Message: "m", URL: "https://x", ElicitationID: "1"})
	wantRPCError(t, err, jsonrpc.CodeInvalidParams, `elicitation mode "url" was not declared`)
	select {
	case <-called:
		t.Error("the handler ran for an undeclared mode")
	default:
	}
	if _, err := serverCall(t, s, MethodElicitationCreate, ElicitRequest{Message: "m"}); err != nil {
		t.Errorf("form elicitation: %v", err)
	}
}

func TestURLElicitationRequired(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodToolsCall, func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeURLElicitationRequired, Message: "authorization required",
			Data: json.RawMessage(`{"elicitations":[{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e7"}]}`)}
	})
	c := connect(t, s, nil)
	_, err := c.CallTool(t.Context(), "private", nil, nil)
	list, ok := URLElicitationRequired(err)
	if !ok || len(list) != 1 || list[0].URL != "https://example.com/login" || list[0].ElicitationID != "e7" || list[0].Mode != ElicitModeURL {
		t.Errorf("URLElicitationRequired(%v) = %+v, %v", err, list, ok)
	}
	if _, ok := URLElicitationRequired(errors.New("other")); ok {
		t.Error("a plain error counted as -32042")
	}
	if list, ok := URLElicitationRequired(&jsonrpc.Error{Code: jsonrpc.CodeURLElicitationRequired, Data: json.RawMessage(`[]`)}); !ok || list != nil {
		t.Errorf("-32042 with odd data = %v, %v", list, ok)
	}
}
