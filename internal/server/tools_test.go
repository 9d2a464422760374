package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func initialized(t *testing.T, s *Server) *wireClient {
	t.Helper()
	c, _ := pipeClient(t, s)
	c.initialize(LatestProtocolVersion)
	return c
}

func TestDefaultTools(t *testing.T) {
	c := initialized(t, NewDefault(nil))
	var list struct {
		Tools []Tool `json:"tools"`
	}
	mustJSON(t, c.call("tools/list", nil), &list)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if len(tl.InputSchema) == 0 {
			t.Errorf("tool %s has no inputSchema", tl.Name)
		}
	}
	want := []string{"echo", "add", "slow", "fail", "bad-output", "large", "sample", "elicit", "roots", "log", "touch", "add-tool"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	if r := c.toolCall("echo", map[string]string{"message": "hi there"}); r.IsError || r.text() != "hi there" {
		t.Errorf("echo: %+v", r)
	}
	if r := c.toolCall("echo", map[string]int{"message": 3}); !r.IsError {
		t.Errorf("echo with a bad argument should be an isError result: %+v", r)
	}
	r := c.toolCall("add", map[string]float64{"a": 2, "b": 0.5})
	var sc struct {
		Sum float64 `json:"sum"`
	}
	mustJSON(t, r.StructuredContent, &sc)
	if r.IsError || r.text() != "2.5" || sc.Sum != 2.5 {
		t.Errorf("add: %+v", r)
	}
	if r := c.toolCall("fail", nil); !r.IsError || r.text() == "" {
		t.Errorf("fail: %+v", r)
	}
	r = c.toolCall("bad-output", nil)
	if err := json.Unmarshal(r.StructuredContent, &sc); err == nil || r.IsError {
		t.Errorf("bad-output should carry a non-number sum without isError: %+v", r)
	}
	if r := c.toolCall("large", map[string]int{"bytes": 1000}); len(r.text()) != 1000 || strings.Trim(r.text(), "x") != "" {
		t.Errorf("large: %d bytes", len(r.text()))
	}
	if r := c.toolCall("large", map[string]int{"bytes": maxLargeBytes + 1}); !r.IsError {
		t.Errorf("large beyond the bound should fail")
	}
}

func TestSlowReportsProgressThenAnswers(t *testing.T) {
	c := initialized(t, NewDefault(nil))
	raw := c.call("tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 3, "delay_ms": 1},
		"_meta": map[string]any{"progressToken": "tok-1"}})
	if r := decodeToolResult(t, raw); r.text() != "done after 3 steps" {
		t.Errorf("result %+v", r)
	}
	if len(c.notes) != 3 {
		t.Fatalf("notifications %v, want 3 progress", methodsOf(c.notes))
	}
	for i, n := range c.notes {
		var p struct {
			Token    string  `json:"progressToken"`
			Progress float64 `json:"progress"`
			Total    float64 `json:"total"`
			Message  string  `json:"message"`
		}
		mustJSON(t, n.Params, &p)
		if n.Method != jsonrpc.MethodProgress || p.Token != "tok-1" || p.Progress != float64(i+1) || p.Total != 3 || p.Message == "" {
			t.Errorf("progress %d: %s %s", i, n.Method, n.Params)
		}
	}
	// Without a token there is no progress.
	c.notes = nil
	c.toolCall("slow", map[string]int{"steps": 2, "delay_ms": 0})
	if len(c.notes) != 0 {
		t.Errorf("progress without a token: %v", methodsOf(c.notes))
	}
}

func TestCancelledCallGetsNoResponse(t *testing.T) {
	s := NewDefault(nil)
	c, done := pipeClient(t, s)
	c.initialize(LatestProtocolVersion)
	id := c.request("tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 1, "delay_ms": 3_600_000}})
	ss := s.Sessions()[0]
	// The server has read the call before it reads the cancellation, and
	// a request is in flight as soon as it is read.
	c.notify(jsonrpc.MethodCancelled, map[string]any{"requestId": id, "reason": "test"})
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	if err := ss.WaitCancelled(ctx, id); err != nil {
		t.Fatal(err)
	}
	if got := ss.Cancelled(); !slices.Equal(got, []jsonrpc.ID{id}) {
		t.Errorf("Cancelled() = %v", got)
	}
	c.call("ping", nil)
	// The handler has given up; had it answered, the answer would be on
	// the wire before the end of the stream.
	_ = c.w.Close()
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		if r, isResp := m.(*jsonrpc.Response); isResp && r.ID == id {
			t.Errorf("a cancelled call got a response: %#v", r)
		}
	}
	if err := done.wait(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestListChangedAfterStart(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	s.AddTool(Tool{Name: "late"}, func(context.Context, *ToolRequest) (*ToolResult, error) { return TextResult("late"), nil })
	m, _ := c.next()
	if n, ok := m.(*jsonrpc.Notification); !ok || n.Method != "notifications/tools/list_changed" {
		t.Fatalf("after AddTool: %#v", m)
	}
	if r := c.toolCall("late", nil); r.text() != "late" {
		t.Errorf("late tool: %+v", r)
	}
	// The add-tool tool does the same from the client's side.
	if r := c.toolCall("add-tool", map[string]string{"name": "echo2"}); r.IsError {
		t.Errorf("add-tool: %+v", r)
	}
	c.awaitNote("notifications/tools/list_changed")
	if r := c.toolCall("echo2", map[string]string{"message": "x"}); r.text() != "x" {
		t.Errorf("echo2: %+v", r)
	}
	if !s.RemoveTool("late") || s.RemoveTool("late") {
		t.Errorf("RemoveTool should report whether the tool existed")
	}
	m, _ = c.next()
	if n, ok := m.(*jsonrpc.Notification); !ok || n.Method != "notifications/tools/list_changed" {
		t.Fatalf("after RemoveTool: %#v", m)
	}
}

func TestLoggingLevelFilters(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	r := c.toolCall("log", map[string]string{"level": "debug", "message": "d1"})
	if r.text() != "sent" || len(c.notes) != 1 || c.notes[0].Method != "notifications/message" {
		t.Fatalf("debug log before setLevel: %+v, notes %v", r, methodsOf(c.notes))
	}
	var p struct {
		Level string `json:"level"`
		Data  string `json:"data"`
	}
	mustJSON(t, c.notes[0].Params, &p)
	if p.Level != "debug" || p.Data != "d1" {
		t.Errorf("log params %s", c.notes[0].Params)
	}
	c.call("logging/setLevel", map[string]string{"level": "warning"})
	if lvl := s.Sessions()[0].LogLevel(); lvl != "warning" {
		t.Errorf("LogLevel %q", lvl)
	}
	c.notes = nil
	if r := c.toolCall("log", map[string]string{"level": "info", "message": "i"}); r.text() == "sent" || len(c.notes) != 0 {
		t.Errorf("info after setLevel warning was sent: %v", methodsOf(c.notes))
	}
	if r := c.toolCall("log", map[string]string{"level": "error", "message": "e"}); r.text() != "sent" || len(c.notes) != 1 {
		t.Errorf("error after setLevel warning: %+v %v", r, methodsOf(c.notes))
	}
	if err := c.callErr("logging/setLevel", map[string]string{"level": "loud"}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad level: %v", err)
	}
	if r := c.toolCall("log", map[string]string{"level": "loud", "message": "x"}); !r.IsError {
		t.Errorf("log tool with a bad level: %+v", r)
	}
}

func TestToolHandlerErrors(t *testing.T) {
	s := NewServer(nil)
	s.AddTool(Tool{Name: "rpc-error"}, func(context.Context, *ToolRequest) (*ToolResult, error) {
		return nil, jsonrpc.NewError(-32042, "url elicitation required")
	})
	s.AddTool(Tool{Name: "plain-error"}, func(context.Context, *ToolRequest) (*ToolResult, error) {
		return nil, context.DeadlineExceeded
	})
	s.AddTool(Tool{Name: "nil-result"}, func(context.Context, *ToolRequest) (*ToolResult, error) { return nil, nil })
	c := initialized(t, s)
	if err := c.callErr("tools/call", map[string]any{"name": "rpc-error"}); err.Code != -32042 {
		t.Errorf("rpc-error: %v", err)
	}
	if r := c.toolCall("plain-error", nil); !r.IsError || !strings.Contains(r.text(), "deadline") {
		t.Errorf("plain-error: %+v", r)
	}
	raw := c.call("tools/call", map[string]any{"name": "nil-result"})
	if string(raw) != `{"content":[]}` {
		t.Errorf("nil-result: %s", raw)
	}
}

func TestRequestsInFlightAreAnsweredAfterTheClientStopsSending(t *testing.T) {
	c, done := pipeClient(t, NewDefault(nil))
	c.initialize(LatestProtocolVersion)
	slow := c.request("tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 2, "delay_ms": 5}})
	sample := c.request("tools/call", map[string]any{"name": "sample", "arguments": map[string]string{"prompt": "p"}})
	_ = c.w.Close() // like closing a child's stdin
	got := map[jsonrpc.ID]*jsonrpc.Response{}
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		if r, isResp := m.(*jsonrpc.Response); isResp {
			got[r.ID] = r
		}
	}
	if r := got[slow]; r == nil || decodeToolResult(t, r.Result).text() != "done after 2 steps" {
		t.Errorf("slow call: %#v", r)
	}
	// The sampling request can never be answered now: the tool fails at
	// once instead of holding the session open.
	if r := got[sample]; r == nil || !decodeToolResult(t, r.Result).IsError {
		t.Errorf("sample call: %#v", r)
	}
	if err := done.wait(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestCancelWithAReusedIDEndsTheFirstCallOnly sends two calls with one id
// while the first still runs, as a faulty client might. The cancellation
// names the id, which the session keeps for the first call: that one ends
// without a response, and the second, which never had the id's entry,
// answers under the id, here while the first is still giving up. (The
// session keeps its requests by value with a sequence number; this checks
// that each call still tells its own entry from the other's.)
func TestCancelWithAReusedIDEndsTheFirstCallOnly(t *testing.T) {
	s := NewServer(nil)
	started := make(chan string, 2)
	firstCancelled, firstGo, secondGo := make(chan struct{}), make(chan struct{}), make(chan struct{})
	s.AddTool(Tool{Name: "wait"}, func(ctx context.Context, tr *ToolRequest) (*ToolResult, error) {
		var args struct{ Tag string }
		_ = json.Unmarshal(tr.Arguments, &args)
		started <- args.Tag
		if args.Tag == "first" {
			<-ctx.Done()
			close(firstCancelled)
			<-firstGo
			return nil, ctx.Err()
		}
		<-secondGo
		return TextResult(args.Tag), nil
	})
	c, done := pipeClient(t, s)
	c.initialize(LatestProtocolVersion)
	c.sendRaw(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{"tag":"first"}}}`)
	if tag := <-started; tag != "first" {
		t.Fatalf("started %q first", tag)
	}
	c.sendRaw(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{"tag":"second"}}}`)
	if tag := <-started; tag != "second" {
		t.Fatalf("started %q second", tag)
	}
	c.notify(jsonrpc.MethodCancelled, map[string]any{"requestId": 7, "reason": "test"})
	<-firstCancelled
	close(secondGo)
	r := c.await(jsonrpc.Int64ID(7))
	if r.Error != nil || !strings.Contains(string(r.Result), `"second"`) {
		t.Fatalf("the answer under id 7: %s %v, want the second call's", r.Result, r.Error)
	}
	close(firstGo)
	ss := s.Sessions()[0]
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	if err := ss.WaitCancelled(ctx, jsonrpc.Int64ID(7)); err != nil {
		t.Fatal(err)
	}
	if got := ss.Cancelled(); !slices.Equal(got, []jsonrpc.ID{jsonrpc.Int64ID(7)}) {
		t.Errorf("Cancelled() = %v, want [7] once", got)
	}
	c.call("ping", nil)
	_ = c.w.Close()
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		if r, isResp := m.(*jsonrpc.Response); isResp && r.ID == jsonrpc.Int64ID(7) {
			t.Errorf("a second answer under id 7: %#v", r)
		}
	}
	if err := done.wait(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
}
