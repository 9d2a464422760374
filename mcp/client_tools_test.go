package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// pagedList scripts a list method that serves pages in order: the first
// request must carry no cursor, each later one the cursor handed out
// before. It records the cursors it was asked for.
type pagedList struct {
	mu      sync.Mutex
	asked   []string
	pages   []string // each a JSON result
	cursors []string // cursor expected for page i (page 0: "")
}

func (p *pagedList) handle(_ context.Context, req *jsonrpc.Request) (any, error) {
	var params struct {
		Cursor *string `json:"cursor"`
	}
	if len(req.Params) > 0 {
		if err := json.Unmarshal(req.Params, &params); err != nil {
			return nil, err
		}
	}
	cursor := ""
	if params.Cursor != nil {
		cursor = *params.Cursor
		if cursor == "" {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "empty cursor sent")
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, cursor)
	i := slices.Index(p.cursors, cursor)
	if i < 0 {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid cursor")
	}
	return json.RawMessage(p.pages[i]), nil
}

func TestListToolsFollowsCursors(t *testing.T) {
	s := newFakeServer(t)
	list := &pagedList{
		cursors: []string{"", "c1", "c2"},
		pages: []string{
			`{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"c1"}`,
			`{"tools":[{"name":"c","title":"C!","inputSchema":{"type":"object"}}],"nextCursor":"c2"}`,
			`{"tools":[{"name":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`,
		},
	}
	s.on(MethodToolsList, list.handle)
	c := connect(t, s, nil)
	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.DisplayName())
	}
	if want := []string{"a", "b", "C!", "d"}; !slices.Equal(names, want) {
		t.Errorf("tools = %q, want %q", names, want)
	}
	if want := []string{"", "c1", "c2"}; !slices.Equal(list.asked, want) {
		t.Errorf("cursors asked = %q, want %q", list.asked, want)
	}
	if ro := tools[3].Annotations.ReadOnlyHint; ro == nil || !*ro {
		t.Errorf("annotations of d = %+v", tools[3].Annotations)
	}

	page, err := c.ListToolsPage(t.Context(), "c1")
	if err != nil || len(page.Tools) != 1 || page.Tools[0].Name != "c" || page.NextCursor != "c2" {
		t.Errorf("ListToolsPage(c1) = %+v, %v", page, err)
	}
}

func TestListingStopsOnRepeatedCursor(t *testing.T) {
	s := newFakeServer(t)
	list := &pagedList{
		cursors: []string{"", "again"},
		pages:   []string{`{"tools":[{"name":"a"}],"nextCursor":"again"}`, `{"tools":[{"name":"b"}],"nextCursor":"again"}`},
	}
	s.on(MethodToolsList, list.handle)
	c := connect(t, s, nil)
	_, err := c.ListTools(t.Context())
	if err == nil || !strings.Contains(err.Error(), "tools/list") || !strings.Contains(err.Error(), `"again"`) {
		t.Fatalf("ListTools error = %v, want one naming tools/list and the cursor", err)
	}
	if len(list.asked) != 2 {
		t.Errorf("asked %d pages, want 2", len(list.asked))
	}
}

func TestListingGivesUpAfterManyPages(t *testing.T) {
	pages := 0
	_, err := listAll(t.Context(), MethodPromptsList, func(_ context.Context, cursor string) ([]int, string, error) {
		if want := fmt.Sprint(pages); pages > 0 && cursor != want {
			t.Fatalf("page %d asked with cursor %q, want %q", pages, cursor, want)
		}
		pages++
		return []int{pages}, fmt.Sprint(pages), nil // a fresh cursor every time
	})
	if err == nil || err.Error() != "mcp: prompts/list: stopped after 10000 pages; the server keeps sending a nextCursor" {
		t.Fatalf("listAll error = %v", err)
	}
	if pages != maxListPages {
		t.Errorf("fetched %d pages, want %d", pages, maxListPages)
	}
}

func TestListToolsDropsNamelessTools(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodToolsList, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"tools":[{"name":"a"},{"description":"no name"},{"name":"b"}]}`), nil
	})
	var h hookRecorder
	c := connect(t, s, &ClientOptions{ErrorHook: h.hook})
	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 2 || tools[0].Name != "a" || tools[1].Name != "b" {
		t.Errorf("tools = %+v", tools)
	}
	errs := h.all()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "dropped tool 1 of the page: it has no name") {
		t.Errorf("hook got %v", errs)
	}
}

func TestListErrorsNameTheMethod(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodResourcesList, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"resources":{"not":"a list"}}`), nil
	})
	s.on(MethodResourceTemplatesList, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`"nope"`), nil
	})
	c := connect(t, s, nil)
	// A field of the wrong JSON type is said in the protocol's words, and
	// the decoder's error stays in the chain.
	_, err := c.ListResources(t.Context())
	var ute *json.UnmarshalTypeError
	if err == nil || err.Error() != `mcp: resources/list: the result's "resources" is an object where the protocol has an array` || !errors.As(err, &ute) {
		t.Errorf("ListResources error = %v", err)
	}
	if _, err := c.ListResourceTemplates(t.Context()); err == nil || err.Error() != "mcp: resources/templates/list: the result is a string, not a JSON object" {
		t.Errorf("ListResourceTemplates error = %v", err)
	}
	_, err = c.ListPrompts(t.Context()) // the fake server has no prompts/list
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound || !strings.HasPrefix(err.Error(), "mcp: prompts/list: ") {
		t.Errorf("ListPrompts error = %v, want a wrapped -32601", err)
	}
}

func TestCallTool(t *testing.T) {
	s := newFakeServer(t)
	got := make(chan json.RawMessage, 4)
	s.on(MethodToolsCall, func(_ context.Context, req *jsonrpc.Request) (any, error) {
		got <- req.Params
		return json.RawMessage(`{"content":[{"type":"text","text":"3"}],"_meta":{"k":"v"}}`), nil
	})
	c := connect(t, s, nil)

	res, err := c.CallTool(t.Context(), "add", map[string]int{"a": 1, "b": 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Text != "3" || res.IsError || res.Meta["k"] != "v" {
		t.Errorf("result = %+v", res)
	}
	// Every tool call asks for progress, so a server that reports it
	// keeps the call alive (the ids count from 2, after initialize).
	assertSameJSON(t, <-got, []byte(`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":2}}`))

	// No arguments, raw arguments, and _meta.
	if _, err := c.CallTool(t.Context(), "noargs", nil, nil); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-got, []byte(`{"name":"noargs","_meta":{"progressToken":3}}`))
	if _, err := c.CallTool(t.Context(), "raw", json.RawMessage(`{"x":[1]}`), &CallOptions{Meta: map[string]any{"trace": "t1"}}); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-got, []byte(`{"name":"raw","arguments":{"x":[1]},"_meta":{"trace":"t1","progressToken":4}}`))
	// Raw arguments with whitespace between tokens, newlines among it,
	// are compacted on their way (a newline would end the stdio line).
	if _, err := c.CallTool(t.Context(), "spaced", json.RawMessage("{\"x\":\n [1],\t\"y\": \"a b\"}"), nil); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-got, []byte(`{"name":"spaced","arguments":{"x":[1],"y":"a b"},"_meta":{"progressToken":5}}`))

	// Arguments that are not an object never leave the client.
	for _, bad := range []any{"text", []int{1}, json.RawMessage(`{"x":`), json.RawMessage(`{"x":1}}`), json.RawMessage(`{"x":01}`), func() {}} {
		if _, err := c.CallTool(t.Context(), "add", bad, nil); err == nil || !strings.HasPrefix(err.Error(), `mcp: tools/call "add": `) {
			t.Errorf("CallTool with arguments %T: %v", bad, err)
		}
	}
	if _, err := c.CallTool(t.Context(), "", nil, nil); err == nil {
		t.Error("CallTool without a name succeeded")
	}
	select {
	case p := <-got:
		t.Errorf("a bad call reached the server: %s", p)
	default:
	}
}

func TestCallToolErrors(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodToolsCall, func(_ context.Context, req *jsonrpc.Request) (any, error) {
		var p callToolParams
		json.Unmarshal(req.Params, &p)
		switch p.Name {
		case "fails":
			return json.RawMessage(`{"content":[{"type":"text","text":"disk full"}],"isError":true}`), nil
		case "garbled":
			return json.RawMessage(`{"content":[{"type":"image"}]}`), nil
		}
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Unknown tool: "+p.Name)
	})
	c := connect(t, s, nil)

	res, err := c.CallTool(t.Context(), "fails", nil, nil)
	if err != nil || !res.IsError || res.Content[0].Text != "disk full" {
		t.Errorf("a failed tool: %+v, %v (want IsError and no Go error)", res, err)
	}
	_, err = c.CallTool(t.Context(), "missing", nil, nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || err.Error() != "mcp: tools/call: jsonrpc error -32602: Unknown tool: missing" {
		t.Errorf("unknown tool error = %v", err)
	}
	_, err = c.CallTool(t.Context(), "garbled", nil, nil)
	if err == nil || !strings.Contains(err.Error(), `mcp: tools/call: decoding the result: mcp: image content block without "data"`) {
		t.Errorf("garbled result error = %v", err)
	}
}

func TestCallToolProgress(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodToolsCall, func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		var p struct {
			Meta struct {
				ProgressToken json.RawMessage `json:"progressToken"`
				Trace         string          `json:"trace"`
			} `json:"_meta"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || p.Meta.ProgressToken == nil || p.Meta.Trace != "t" {
			return nil, fmt.Errorf("params without progressToken and trace: %s", req.Params)
		}
		for i := 1; i <= 3; i++ {
			err := s.conn.Notify(ctx, NotificationProgress, map[string]any{
				"progressToken": p.Meta.ProgressToken, "progress": i, "total": 3, "message": fmt.Sprintf("step %d", i)})
			if err != nil {
				return nil, err
			}
		}
		return json.RawMessage(`{"content":[]}`), nil
	})
	c := connect(t, s, nil)
	var mu sync.Mutex
	var seen []string
	res, err := c.CallTool(t.Context(), "long", nil, &CallOptions{
		Meta: map[string]any{"trace": "t"},
		OnProgress: func(_ context.Context, p ProgressNotification) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("%v/%v %s", p.Progress, *p.Total, p.Message))
		},
	})
	if err != nil || res.Content == nil {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	// The engine delivers every progress notice that arrived before the
	// response before the call returns.
	if want := []string{"1/3 step 1", "2/3 step 2", "3/3 step 3"}; !slices.Equal(seen, want) {
		t.Errorf("progress = %q, want %q", seen, want)
	}
}

func TestCallToolValidatesListedOutputSchema(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodToolsList, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"tools":[
			{"name":"weather","inputSchema":{"type":"object"},"outputSchema":` + weatherSchema + `},
			{"name":"draft7","inputSchema":{"type":"object"},"outputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}},
			{"name":"broken","inputSchema":{"type":"object"},"outputSchema":{"$schema":"https://example.com/unknown","type":"object"}}]}`), nil
	})
	outputs := map[string]string{
		"weather ok":      `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"temperature":21}}`,
		"weather bad":     `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"temperature":"hot"}}`,
		"weather missing": `{"content":[{"type":"text","text":"21 degrees"}]}`,
		"weather failed":  `{"content":[{"type":"text","text":"no data"}],"isError":true}`,
		"draft7 ok":       `{"content":[],"structuredContent":{"n":1}}`,
		"draft7 bad":      `{"content":[],"structuredContent":{"n":1.5}}`,
		"broken any":      `{"content":[],"structuredContent":{"whatever":true}}`,
	}
	s.on(MethodToolsCall, func(_ context.Context, req *jsonrpc.Request) (any, error) {
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Case string `json:"case"`
			} `json:"arguments"`
		}
		json.Unmarshal(req.Params, &p)
		return json.RawMessage(outputs[p.Name+" "+p.Arguments.Case]), nil
	})
	var h hookRecorder
	c := connect(t, s, &ClientOptions{ErrorHook: h.hook})
	call := func(tool, which string) (*CallToolResult, error) {
		return c.CallTool(t.Context(), tool, map[string]string{"case": which}, nil)
	}

	// Before the tool is listed there is nothing to validate against.
	if _, err := call("weather", "bad"); err != nil {
		t.Fatalf("unlisted tool validated: %v", err)
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tool, which, wantErr string }{
		{"weather", "ok", ""},
		{"weather", "bad", "at '/temperature': got string, want number"},
		{"weather", "missing", "mcp: no structuredContent in the result"},
		{"weather", "failed", ""},
		{"draft7", "ok", ""},
		{"draft7", "bad", "at '/n'"},
		{"broken", "any", ""},
	} {
		res, err := call(tc.tool, tc.which)
		if res == nil {
			t.Fatalf("%s %s: no result (err %v)", tc.tool, tc.which, err)
		}
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%s %s: %v", tc.tool, tc.which, err)
			}
			continue
		}
		var oErr *OutputSchemaError
		if !errors.As(err, &oErr) || oErr.Tool != tc.tool || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s %s: error = %v, want an OutputSchemaError with %q", tc.tool, tc.which, err, tc.wantErr)
		}
	}
	if _, err := call("weather", "missing"); !errors.Is(err, ErrNoStructuredContent) {
		t.Errorf("missing structuredContent: errors.Is(ErrNoStructuredContent) false for %v", err)
	}
	errs := h.all()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `tool "broken": its outputSchema cannot be compiled`) {
		t.Errorf("hook got %v, want one report about broken", errs)
	}
}
