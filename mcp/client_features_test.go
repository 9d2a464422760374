package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// echoParams answers method with result and sends the params it got to ch.
func echoParams(s *fakeServer, method, result string) chan json.RawMessage {
	ch := make(chan json.RawMessage, 4)
	s.on(method, func(_ context.Context, req *jsonrpc.Request) (any, error) {
		ch <- req.Params
		return json.RawMessage(result), nil
	})
	return ch
}

func TestResources(t *testing.T) {
	s := newFakeServer(t)
	list := &pagedList{cursors: []string{"", "r2"}, pages: []string{
		`{"resources":[{"uri":"test://1","name":"one","mimeType":"text/plain","size":3}],"nextCursor":"r2"}`,
		`{"resources":[{"uri":"test://2","name":"two","annotations":{"priority":1}}]}`,
	}}
	s.on(MethodResourcesList, list.handle)
	templates := &pagedList{cursors: []string{"", "t2"}, pages: []string{
		`{"resourceTemplates":[{"uriTemplate":"test://{id}","name":"by id"}],"nextCursor":"t2"}`,
		`{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"files","mimeType":"text/plain"}]}`,
	}}
	s.on(MethodResourceTemplatesList, templates.handle)
	reads := echoParams(s, MethodResourcesRead, `{"contents":[{"uri":"test://1","mimeType":"text/plain","text":"abc"},{"uri":"test://1#2","blob":"AAE="}]}`)
	subs := echoParams(s, MethodResourcesSubscribe, `{}`)
	unsubs := echoParams(s, MethodResourcesUnsubscribe, `{}`)
	c := connect(t, s, nil)
	ctx := t.Context()

	res, err := c.ListResources(ctx)
	if err != nil || len(res) != 2 || res[0].URI != "test://1" || *res[0].Size != 3 || *res[1].Annotations.Priority != 1 {
		t.Errorf("ListResources = %+v, %v", res, err)
	}
	tpl, err := c.ListResourceTemplates(ctx)
	if err != nil || len(tpl) != 2 || tpl[1].URITemplate != "file:///{path}" {
		t.Errorf("ListResourceTemplates = %+v, %v", tpl, err)
	}
	read, err := c.ReadResource(ctx, "test://1")
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-reads, []byte(`{"uri":"test://1"}`))
	if len(read.Contents) != 2 || !read.Contents[0].IsText() || *read.Contents[0].Text != "abc" || read.Contents[1].IsText() {
		t.Errorf("ReadResource = %+v", read)
	}
	if b, err := read.Contents[1].DecodeBlob(); err != nil || !slices.Equal(b, []byte{0, 1}) {
		t.Errorf("blob = %v, %v", b, err)
	}
	if err := c.SubscribeResource(ctx, "test://1"); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-subs, []byte(`{"uri":"test://1"}`))
	if err := c.UnsubscribeResource(ctx, "test://1"); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-unsubs, []byte(`{"uri":"test://1"}`))
	for name, f := range map[string]func() error{
		"read":        func() error { _, err := c.ReadResource(ctx, ""); return err },
		"subscribe":   func() error { return c.SubscribeResource(ctx, "") },
		"unsubscribe": func() error { return c.UnsubscribeResource(ctx, "") },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "the URI is empty") {
			t.Errorf("%s with an empty URI: %v", name, err)
		}
	}
}

func TestReadResourceNotFound(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodResourcesRead, func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeResourceNotFound, Message: "Resource not found", Data: json.RawMessage(`{"uri":"x:y"}`)}
	})
	c := connect(t, s, nil)
	_, err := c.ReadResource(t.Context(), "x:y")
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeResourceNotFound || !strings.HasPrefix(err.Error(), "mcp: resources/read: ") {
		t.Errorf("ReadResource error = %v", err)
	}
}

func TestPrompts(t *testing.T) {
	s := newFakeServer(t)
	list := &pagedList{cursors: []string{"", "p2"}, pages: []string{
		`{"prompts":[{"name":"simple"}],"nextCursor":"p2"}`,
		`{"prompts":[{"name":"complex","arguments":[{"name":"temperature","required":true},{"name":"style"}]}]}`,
	}}
	s.on(MethodPromptsList, list.handle)
	gets := echoParams(s, MethodPromptsGet, `{"description":"d","messages":[
		{"role":"user","content":{"type":"text","text":"temp 0.7"}},
		{"role":"assistant","content":{"type":"image","data":"AA==","mimeType":"image/png"}},
		{"role":"user","content":{"type":"resource","resource":{"uri":"test://1","text":"r"}}}]}`)
	c := connect(t, s, nil)
	prompts, err := c.ListPrompts(t.Context())
	if err != nil || len(prompts) != 2 || len(prompts[1].Arguments) != 2 || !prompts[1].Arguments[0].Required {
		t.Errorf("ListPrompts = %+v, %v", prompts, err)
	}
	got, err := c.GetPrompt(t.Context(), "complex", map[string]string{"temperature": "0.7"})
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-gets, []byte(`{"name":"complex","arguments":{"temperature":"0.7"}}`))
	if len(got.Messages) != 3 || got.Messages[0].Content.Text != "temp 0.7" || got.Messages[1].Role != RoleAssistant ||
		got.Messages[1].Content.Type != ContentImage || got.Messages[2].Content.Resource.URI != "test://1" {
		t.Errorf("GetPrompt = %+v", got)
	}
	if _, err := c.GetPrompt(t.Context(), "simple", nil); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-gets, []byte(`{"name":"simple"}`))
	if _, err := c.GetPrompt(t.Context(), "", nil); err == nil {
		t.Error("GetPrompt without a name succeeded")
	}
}

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		version, wantParams string
	}{
		{"2025-11-25", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"style","value":"fo"},"context":{"arguments":{"temperature":"1"}}}`},
		{"2025-06-18", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"style","value":"fo"},"context":{"arguments":{"temperature":"1"}}}`},
		// 2025-03-26 had no context: it is not sent.
		{"2025-03-26", `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"style","value":"fo"}}`},
	} {
		t.Run(tc.version, func(t *testing.T) {
			s := newFakeServer(t)
			s.version = tc.version
			got := echoParams(s, MethodCompletionComplete, `{"completion":{"values":["formal","folksy"],"total":2,"hasMore":false}}`)
			c := connect(t, s, nil)
			res, err := c.Complete(t.Context(), PromptRef("p"), CompletionArgument{Name: "style", Value: "fo"}, map[string]string{"temperature": "1"})
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, <-got, []byte(tc.wantParams))
			if !slices.Equal(res.Values, []string{"formal", "folksy"}) || *res.Total != 2 || res.HasMore {
				t.Errorf("Complete = %+v", res)
			}
		})
	}
	s := newFakeServer(t)
	got := echoParams(s, MethodCompletionComplete, `{"nothing":true}`)
	c := connect(t, s, nil)
	if _, err := c.Complete(t.Context(), ResourceRef("file:///{path}"), CompletionArgument{Name: "path", Value: "/"}, nil); err == nil ||
		!strings.Contains(err.Error(), `the result has no "completion"`) {
		t.Errorf("Complete without completion: %v", err)
	}
	assertSameJSON(t, <-got, []byte(`{"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":"/"}}`))
	if _, err := c.Complete(t.Context(), CompletionRef{}, CompletionArgument{}, nil); err == nil {
		t.Error("Complete with an empty ref succeeded")
	}
}

func TestLogging(t *testing.T) {
	s := newFakeServer(t)
	levels := echoParams(s, MethodLoggingSetLevel, `{}`)
	logs := make(chan LoggingMessage, 8)
	var h hookRecorder
	c := connect(t, s, &ClientOptions{OnLogMessage: func(_ context.Context, m LoggingMessage) { logs <- m }, ErrorHook: h.hook})
	if err := c.SetLogLevel(t.Context(), LevelWarning); err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, <-levels, []byte(`{"level":"warning"}`))
	if err := c.SetLogLevel(t.Context(), "verbose"); err == nil || !strings.Contains(err.Error(), `unknown level "verbose"`) {
		t.Errorf("SetLogLevel(verbose): %v", err)
	}

	ctx := t.Context()
	s.conn.Notify(ctx, NotificationMessage, json.RawMessage(`{"level":"error","logger":"db","data":{"msg":"down"}}`))
	s.conn.Notify(ctx, NotificationMessage, json.RawMessage(`{"level":5}`)) // undecodable: reported, dropped
	s.conn.Notify(ctx, NotificationMessage, json.RawMessage(`{"level":"info","data":"plain"}`))
	first, second := <-logs, <-logs
	if first.Level != LevelError || first.Logger != "db" || string(first.Data) != `{"msg":"down"}` {
		t.Errorf("first log = %+v", first)
	}
	if second.Level != LevelInfo || string(second.Data) != `"plain"` {
		t.Errorf("second log = %+v", second)
	}
	errs := h.all()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "notifications/message: undecodable notification dropped") {
		t.Errorf("hook got %v", errs)
	}
}

func TestOnNotification(t *testing.T) {
	s := newFakeServer(t)
	c := connect(t, s, nil)
	got := make(chan string, 8)
	stop := c.OnNotification(NotificationToolsListChanged, func(_ context.Context, n *jsonrpc.Notification) { got <- n.Method })
	all := c.OnNotification("", func(_ context.Context, n *jsonrpc.Notification) { got <- "any " + n.Method })
	defer all()
	ctx := t.Context()
	s.conn.Notify(ctx, NotificationToolsListChanged, nil)
	s.conn.Notify(ctx, NotificationResourceUpdated, ResourceUpdated{URI: "test://1"})
	var seen []string
	for range 3 {
		seen = append(seen, <-got)
	}
	slices.Sort(seen)
	if want := []string{"any notifications/resources/updated", "any notifications/tools/list_changed", "notifications/tools/list_changed"}; !slices.Equal(seen, want) {
		t.Errorf("seen %q, want %q", seen, want)
	}
	stop()
	s.conn.Notify(ctx, NotificationToolsListChanged, nil)
	if m := <-got; m != "any notifications/tools/list_changed" {
		t.Errorf("after unsubscribing got %q", m)
	}
}

func TestPingAndClose(t *testing.T) {
	s := newFakeServer(t)
	pings := echoParams(s, MethodPing, `{}`)
	c := connect(t, s, nil)
	if err := c.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	if p := <-pings; p != nil {
		t.Errorf("ping params = %s, want none", p)
	}
	if c.Conn() == nil || c.Err() != nil {
		t.Fatalf("open client: Conn %v, Err %v", c.Conn(), c.Err())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	<-c.Done()
	if !errors.Is(c.Err(), jsonrpc.ErrClosed) {
		t.Errorf("Err() after Close = %v", c.Err())
	}
	if err := c.Ping(t.Context()); !errors.Is(err, jsonrpc.ErrClosed) || !strings.HasPrefix(err.Error(), "mcp: ping (id ") {
		t.Errorf("Ping after Close = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestServerGoneEndsTheClient(t *testing.T) {
	s := newFakeServer(t)
	c := connect(t, s, nil)
	s.conn.Close()
	<-c.Done()
	if !errors.Is(c.Err(), jsonrpc.ErrClosed) {
		t.Errorf("Err() = %v", c.Err())
	}
}
