package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestServerToClientRequestsFromTools(t *testing.T) {
	c := initialized(t, NewDefault(nil))
	var seen []string
	c.answer = func(req *jsonrpc.Request) (any, error) {
		seen = append(seen, req.Method)
		switch req.Method {
		case "sampling/createMessage":
			var p struct {
				Messages []struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"messages"`
				MaxTokens int `json:"maxTokens"`
			}
			if err := json.Unmarshal(req.Params, &p); err != nil || len(p.Messages) != 1 || p.MaxTokens <= 0 {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "bad sampling params")
			}
			return map[string]any{"role": "assistant", "model": "test-model",
				"content": map[string]string{"type": "text", "text": "sampled: " + p.Messages[0].Content.Text}}, nil
		case "elicitation/create":
			var p struct {
				Message         string `json:"message"`
				RequestedSchema struct {
					Properties map[string]struct {
						Default any `json:"default"`
					} `json:"properties"`
				} `json:"requestedSchema"`
			}
			if err := json.Unmarshal(req.Params, &p); err != nil || p.Message != "fill it" {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "bad elicitation params")
			}
			content := map[string]any{}
			for name, prop := range p.RequestedSchema.Properties {
				if prop.Default == nil {
					return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, name+" has no default")
				}
				content[name] = prop.Default
			}
			return map[string]any{"action": "accept", "content": content}, nil
		case "roots/list":
			return map[string]any{"roots": []map[string]string{{"uri": "file:///work", "name": "work"}}}, nil
		}
		return nil, jsonrpc.ErrMethodNotFound
	}
	if r := c.toolCall("sample", map[string]string{"prompt": "hello"}); r.IsError || r.text() != "sampled: hello" {
		t.Errorf("sample: %+v", r)
	}
	r := c.toolCall("elicit", map[string]string{"message": "fill it"})
	var el struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	mustJSON(t, json.RawMessage(r.text()), &el)
	if r.IsError || el.Action != "accept" || el.Content["name"] != "mcptest" || el.Content["count"] != 3.0 || el.Content["ok"] != true || el.Content["color"] != "green" || el.Content["ratio"] != 0.5 {
		t.Errorf("elicit: %+v", r)
	}
	if r := c.toolCall("roots", nil); r.IsError || !strings.Contains(r.text(), "file:///work") {
		t.Errorf("roots: %+v", r)
	}
	if strings.Join(seen, ",") != "sampling/createMessage,elicitation/create,roots/list" {
		t.Errorf("server requests %v", seen)
	}

	// A client error becomes the tool's isError result.
	c.answer = func(*jsonrpc.Request) (any, error) {
		return nil, jsonrpc.NewError(jsonrpc.CodeUserRejected, "user said no")
	}
	if r := c.toolCall("sample", map[string]string{"prompt": "x"}); !r.IsError || !strings.Contains(r.text(), "user said no") {
		t.Errorf("rejected sample: %+v", r)
	}
	// Content as an array (2025-11-25) works too.
	c.answer = func(*jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"role":"assistant","model":"m","content":[{"type":"text","text":"arr"}]}`), nil
	}
	if r := c.toolCall("sample", map[string]string{"prompt": "x"}); r.text() != "arr" {
		t.Errorf("array content: %+v", r)
	}
}

func TestSessionRequestsFromTheTest(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	ss := s.Sessions()[0]
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()

	errc := make(chan error, 1)
	go func() { errc <- ss.Ping(ctx) }()
	m, _ := c.next()
	req, ok := m.(*jsonrpc.Request)
	if !ok || req.Method != "ping" {
		t.Fatalf("got %#v, want a ping request", m)
	}
	c.answer = func(*jsonrpc.Request) (any, error) { return nil, nil }
	c.answerRequest(req)
	if err := <-errc; err != nil {
		t.Errorf("Ping: %v", err)
	}

	// A call the server gives up on is cancelled on the wire.
	callCtx, stop := context.WithCancel(ctx)
	go func() {
		_, err := ss.ListRoots(callCtx)
		errc <- err
	}()
	m, _ = c.next()
	req = m.(*jsonrpc.Request)
	stop()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("ListRoots after cancel: %v", err)
	}
	n := c.awaitNote(jsonrpc.MethodCancelled)
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	mustJSON(t, n.Params, &p)
	if p.RequestID != req.ID {
		t.Errorf("cancelled %s, want %s", p.RequestID, req.ID)
	}
	// Its late answer is a problem the server records, not a crash.
	c.answerRequest(req)
	c.call("ping", nil)
	if probs := ss.Problems(); len(probs) != 1 || !strings.Contains(probs[0].Error(), req.ID.String()) {
		t.Errorf("problems %v", probs)
	}

	// Notify and Log reach the client.
	if err := ss.Notify(ctx, "notifications/custom", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	c.awaitNote("notifications/custom")
	if sent, err := ss.Log(ctx, "warning", "careful"); !sent || err != nil {
		t.Fatalf("Log: %v %v", sent, err)
	}
	c.awaitNote("notifications/message")

	// A session that ends fails the calls still waiting.
	go func() {
		_, err := ss.CreateMessage(ctx, map[string]any{})
		errc <- err
	}()
	c.next()
	_ = c.w.Close()
	if err := <-errc; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("CreateMessage after the session ended: %v", err)
	}
}

func TestWaitReceived(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	ss := s.Sessions()[0]
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	got := make(chan jsonrpc.Message, 1)
	go func() {
		m, err := ss.WaitReceived(ctx, "notifications/roots/list_changed")
		if err != nil {
			t.Error(err)
		}
		got <- m
	}()
	c.notify("notifications/roots/list_changed", nil)
	if m := <-got; methodOf(m) != "notifications/roots/list_changed" {
		t.Errorf("WaitReceived returned %#v", m)
	}
	short, stop := context.WithCancel(ctx)
	stop()
	if _, err := ss.WaitReceived(short, "never/sent"); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitReceived with a dead ctx: %v", err)
	}
}
