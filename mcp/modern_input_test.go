package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// modernWith is the modern pin plus handlers.
func modernWith(set func(o *ClientOptions)) *ClientOptions {
	o := *modernPin
	set(&o)
	return &o
}

func toolText(t *testing.T, res *CallToolResult) string {
	t.Helper()
	if res == nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("tool result %+v", res)
	}
	return res.Content[0].Text
}

// The handlers registered for the older eras' server requests answer the
// modern era's input_required results, and the request is retried with
// the answers.
func TestModernInputAnsweredByHandlers(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	var asked []string
	c, _ := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
		o.Elicitation = func(_ context.Context, req *ElicitRequest) (*ElicitResult, error) {
			asked = append(asked, req.Message)
			return &ElicitResult{Action: "accept", Content: map[string]any{"name": "ada"}}, nil
		}
		o.Sampling = func(_ context.Context, req *CreateMessageRequest) (*CreateMessageResult, error) {
			return &CreateMessageResult{Content: SamplingContent{TextContent("echo: " + req.Messages[0].Content[0].Text)}, Model: "m"}, nil
		}
		o.InitialRoots = []Root{{URI: "file:///work", Name: "work"}}
	}))
	ctx := t.Context()
	res, err := c.CallTool(ctx, "elicit", map[string]any{"message": "who?"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolText(t, res); !strings.Contains(got, `"name":"ada"`) || len(asked) != 1 || asked[0] != "who?" {
		t.Errorf("elicit: %s, handler asked %q", got, asked)
	}
	res, err = c.CallTool(ctx, "sample", map[string]any{"prompt": "hi"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolText(t, res); got != "echo: hi" {
		t.Errorf("sample: %q", got)
	}
	res, err = c.CallTool(ctx, "roots", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolText(t, res); !strings.Contains(got, "file:///work") {
		t.Errorf("roots: %q", got)
	}
	var retries int
	for _, r := range srv.ModernRequests() {
		if r.Method == "tools/call" && strings.Contains(string(r.Params), `"inputResponses"`) {
			retries++
			if !strings.Contains(string(r.Params), `"requestState"`) {
				t.Errorf("a retry without the requestState: %s", r.Params)
			}
		}
	}
	if retries != 3 {
		t.Errorf("%d retries with inputResponses, want 3", retries)
	}
}

// A request the client cannot answer fails with an error naming it.
func TestModernInputNotAnswerable(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, _ := connectMCPTest(t, srv, modernPin)
	_, err := c.CallTool(t.Context(), "elicit", nil, nil)
	var inErr *InputError
	if code, _ := jsonrpc.ErrorCode(err); !errors.As(err, &inErr) || code != CodeMissingClientCapability || !strings.Contains(err.Error(), `"elicitation"`) {
		t.Fatalf("CallTool without an elicitation handler: %v", err)
	}
}

// With ClientOptions.InputRequired the caller answers instead.
func TestModernInputRequiredOption(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	var seen []*InputRequired
	c, _ := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
		o.Elicitation = func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return nil, errors.New("the option must be asked, not the handler")
		}
		o.InputRequired = func(_ context.Context, ir *InputRequired) (map[string]json.RawMessage, error) {
			seen = append(seen, ir)
			out := map[string]json.RawMessage{}
			for k := range ir.InputRequests {
				out[k] = json.RawMessage(`{"action":"decline"}`)
			}
			return out, nil
		}
	}))
	res, err := c.CallTool(t.Context(), "elicit", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolText(t, res); !strings.Contains(got, "decline") {
		t.Errorf("result %q", got)
	}
	if len(seen) != 1 || seen[0].Method != MethodToolsCall || seen[0].Round != 1 || seen[0].RequestState == nil || len(seen[0].InputRequests) != 1 {
		t.Fatalf("the option saw %+v", seen)
	}
	for _, r := range seen[0].InputRequests {
		if r.Method != MethodElicitationCreate {
			t.Errorf("asked %s", r.Method)
		}
	}
}

// An input_required without inputRequests is load shedding: the client
// comes back later with the state, and the call succeeds.
func TestModernInputLoadShedding(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, _ := connectMCPTest(t, srv, modernPin)
	srv.ShedLoad(1)
	res, err := c.CallTool(t.Context(), "add", map[string]any{"a": 1, "b": 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolText(t, res); got != "3" {
		t.Errorf("add after shedding: %q", got)
	}
	calls := 0
	for _, r := range srv.ModernRequests() {
		if r.Method == "tools/call" {
			calls++
		}
	}
	if calls != 2 {
		t.Errorf("%d tools/call requests, want 2 (the first shed)", calls)
	}
}

// A server that keeps asking is given up on after maxInputRounds.
func TestModernInputRoundsBounded(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	srv.AddTool(mcptest.Tool{Name: "nag"}, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		for i := range 2 * maxInputRounds {
			if _, err := req.Session.Elicit(ctx, map[string]any{"message": fmt.Sprint("question ", i), "requestedSchema": json.RawMessage(`{"type":"object","properties":{}}`)}); err != nil {
				return nil, err
			}
		}
		return mcptest.TextResult("done"), nil
	})
	rounds := 0
	c, _ := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
		o.Elicitation = func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			rounds++
			return &ElicitResult{Action: "decline"}, nil
		}
	}))
	_, err := c.CallTool(t.Context(), "nag", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "after 10 rounds") {
		t.Fatalf("CallTool: %v", err)
	}
	if rounds != maxInputRounds-1 {
		t.Errorf("answered %d rounds, want %d", rounds, maxInputRounds-1)
	}
}

// inputRequired reads every result of the three input methods.
func FuzzModernInputRequired(f *testing.F) {
	f.Add([]byte(`{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}},"requestState":"s"}`))
	f.Add([]byte(`{"resultType":"input_required","inputRequests":[]}`))
	f.Add([]byte(`{"resultType":"complete","content":[{"type":"text","text":"input_required"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		ir, asks := inputRequired(raw)
		if ir != nil && !asks {
			t.Fatal("decoded an input request from a result that does not ask")
		}
	})
}

// Each round of a request goes out under a new JSON-RPC id, and a call
// made between the rounds (here from the handler itself) carries nothing
// of them.
func TestModernInputRoundsIsolated(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	var c *Client
	c, session := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
		o.Elicitation = func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error) {
			if _, err := c.CallTool(ctx, "echo", map[string]any{"message": "between"}, nil); err != nil {
				return nil, err
			}
			return &ElicitResult{Action: "accept", Content: map[string]any{"name": "ada"}}, nil
		}
	}))
	if _, err := c.CallTool(t.Context(), "elicit", map[string]any{"message": "who?"}, nil); err != nil {
		t.Fatal(err)
	}
	ids := map[string][]jsonrpc.ID{}
	for _, m := range session.Received() {
		req, ok := m.(*jsonrpc.Request)
		if !ok || req.Method != MethodToolsCall {
			continue
		}
		var p struct {
			Name           string
			InputResponses json.RawMessage
			RequestState   *string
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			t.Fatal(err)
		}
		ids[p.Name] = append(ids[p.Name], req.ID)
		if p.Name == "echo" && (p.InputResponses != nil || p.RequestState != nil) {
			t.Errorf("the call between the rounds carried another request's input: %s", req.Params)
		}
	}
	if e := ids["elicit"]; len(e) != 2 || e[0] == e[1] {
		t.Errorf("elicit went out as %v, want two rounds under different ids", e)
	}
	if len(ids["echo"]) != 1 {
		t.Errorf("echo went out %d times", len(ids["echo"]))
	}
}
