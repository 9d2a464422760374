package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// listAll pages through a list method and returns the names (or URIs,
// templates) of every item and the number of pages.
func listAll(t *testing.T, c *wireClient, method, key, field string) ([]string, int) {
	t.Helper()
	var names []string
	var cursor *string
	pages := 0
	for {
		params := map[string]any{}
		if cursor != nil {
			params["cursor"] = *cursor
		}
		var res map[string]json.RawMessage
		mustJSON(t, c.call(method, params), &res)
		pages++
		var items []map[string]any
		mustJSON(t, res[key], &items)
		for _, it := range items {
			names = append(names, it[field].(string))
		}
		next, ok := res["nextCursor"]
		if !ok {
			return names, pages
		}
		var s string
		mustJSON(t, next, &s)
		cursor = &s
		if pages > 100 {
			t.Fatalf("%s does not end", method)
		}
	}
}

func TestPagination(t *testing.T) {
	s := NewDefault(&Options{PageSize: 2})
	for i := range 3 {
		s.AddPrompt(Prompt{Name: "p" + strconv.Itoa(i)}, func(context.Context, map[string]string) (*PromptResult, error) { return &PromptResult{}, nil })
		s.AddResource(Resource{URI: "mcptest://r/" + strconv.Itoa(i), Name: "r"})
	}
	c := initialized(t, s)
	tools, pages := listAll(t, c, "tools/list", "tools", "name")
	if len(tools) != 12 || pages != 6 {
		t.Errorf("tools: %d in %d pages, want 12 in 6", len(tools), pages)
	}
	if prompts, pages := listAll(t, c, "prompts/list", "prompts", "name"); len(prompts) != 5 || pages != 3 || prompts[4] != "p2" {
		t.Errorf("prompts: %v in %d pages", prompts, pages)
	}
	if res, pages := listAll(t, c, "resources/list", "resources", "uri"); len(res) != 5 || pages != 3 || res[0] != HelloURI {
		t.Errorf("resources: %v in %d pages", res, pages)
	}
	if tm, pages := listAll(t, c, "resources/templates/list", "resourceTemplates", "uriTemplate"); !slices.Equal(tm, []string{ItemURITemplate}) || pages != 1 {
		t.Errorf("templates: %v in %d pages", tm, pages)
	}
	for _, bad := range []string{"garbage", base64.RawURLEncoding.EncodeToString([]byte("offset:99")), base64.RawURLEncoding.EncodeToString([]byte("offset:-1"))} {
		if err := c.callErr("tools/list", map[string]string{"cursor": bad}); err.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("cursor %q: %v, want -32602", bad, err)
		}
	}
	// Without a page size everything comes at once.
	c2 := initialized(t, NewDefault(nil))
	if tools, pages := listAll(t, c2, "tools/list", "tools", "name"); len(tools) != 12 || pages != 1 {
		t.Errorf("unpaged: %d tools in %d pages", len(tools), pages)
	}
}

func TestResources(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	type contents struct {
		Contents []struct {
			URI      string `json:"uri"`
			MIMEType string `json:"mimeType"`
			Text     *string
			Blob     *string
		} `json:"contents"`
	}
	read := func(uri string) (r contents) {
		mustJSON(t, c.call("resources/read", map[string]string{"uri": uri}), &r)
		return r
	}
	r := read(HelloURI)
	if len(r.Contents) != 1 || r.Contents[0].Text == nil || *r.Contents[0].Text != HelloText || r.Contents[0].Blob != nil {
		t.Errorf("hello: %+v", r)
	}
	r = read(BlobURI)
	if len(r.Contents) != 1 || r.Contents[0].Blob == nil || *r.Contents[0].Blob != base64.StdEncoding.EncodeToString(BlobBytes) || r.Contents[0].Text != nil {
		t.Errorf("blob: %+v", r)
	}
	r = read("mcptest://item/42")
	if len(r.Contents) != 1 || *r.Contents[0].Text != "item 42" || r.Contents[0].URI != "mcptest://item/42" {
		t.Errorf("template: %+v", r)
	}
	for _, uri := range []string{"mcptest://nope", "mcptest://item/", "mcptest://item/1/2"} {
		err := c.callErr("resources/read", map[string]string{"uri": uri})
		if err.Code != jsonrpc.CodeResourceNotFound || !json.Valid(err.Data) {
			t.Errorf("read %s: %v", uri, err)
		}
	}

	// Subscriptions: touch (the tool) and AddResource (replacing) notify
	// subscribers only.
	c.call("resources/subscribe", map[string]string{"uri": HelloURI})
	if subs := s.Sessions()[0].Subscriptions(); !slices.Equal(subs, []string{HelloURI}) {
		t.Errorf("Subscriptions() = %v", subs)
	}
	c.toolCall("touch", map[string]string{"uri": HelloURI})
	n := c.awaitNote("notifications/resources/updated")
	var p struct {
		URI string `json:"uri"`
	}
	mustJSON(t, n.Params, &p)
	if p.URI != HelloURI {
		t.Errorf("updated %s", n.Params)
	}
	s.AddResource(Resource{URI: HelloURI, Name: "hello.txt", Text: "changed"})
	c.awaitNote("notifications/resources/updated")
	c.call("resources/unsubscribe", map[string]string{"uri": HelloURI})
	c.toolCall("touch", map[string]string{"uri": HelloURI})
	// A new resource is a list change; no update may come before it since
	// the subscription is gone.
	s.AddResource(Resource{URI: "mcptest://new", Name: "new"})
	if n := c.awaitNote("notifications/resources/list_changed"); n == nil || slices.Contains(methodsOf(c.notes), "notifications/resources/updated") {
		t.Errorf("an update reached an unsubscribed client: %v", methodsOf(c.notes))
	}
	if err := c.callErr("resources/subscribe", map[string]string{}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("subscribe without uri: %v", err)
	}
}

func TestPromptsAndCompletion(t *testing.T) {
	c := initialized(t, NewDefault(nil))
	var list struct {
		Prompts []Prompt `json:"prompts"`
	}
	mustJSON(t, c.call("prompts/list", nil), &list)
	if len(list.Prompts) != 2 || list.Prompts[1].Name != "summarize" || !list.Prompts[1].Arguments[0].Required {
		t.Errorf("prompts %+v", list.Prompts)
	}
	var got struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	mustJSON(t, c.call("prompts/get", map[string]any{"name": "greeting"}), &got)
	if len(got.Messages) != 1 || got.Messages[0].Role != "user" || got.Messages[0].Content.Type != "text" {
		t.Errorf("greeting %+v", got)
	}
	mustJSON(t, c.call("prompts/get", map[string]any{"name": "summarize", "arguments": map[string]string{"topic": "MCP", "style": "detailed"}}), &got)
	if got.Messages[0].Content.Text != "Summarize MCP in a detailed style." {
		t.Errorf("summarize %+v", got)
	}
	if err := c.callErr("prompts/get", map[string]any{"name": "summarize"}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("missing required argument: %v", err)
	}
	if err := c.callErr("prompts/get", map[string]any{"name": "nope"}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown prompt: %v", err)
	}

	complete := func(ref map[string]string, arg, value string) []string {
		var r struct {
			Completion struct {
				Values []string `json:"values"`
			} `json:"completion"`
		}
		mustJSON(t, c.call("completion/complete", map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": value}}), &r)
		return r.Completion.Values
	}
	prompt := map[string]string{"type": "ref/prompt", "name": "summarize"}
	if v := complete(prompt, "style", "b"); !slices.Equal(v, []string{"brief", "bullet-points"}) {
		t.Errorf("style b: %v", v)
	}
	if v := complete(prompt, "style", "z"); v == nil || len(v) != 0 {
		t.Errorf("style z: %#v, want an empty array", v)
	}
	if v := complete(map[string]string{"type": "ref/resource", "uri": ItemURITemplate}, "id", ""); !slices.Equal(v, []string{"1", "2", "3"}) {
		t.Errorf("item id: %v", v)
	}
	if err := c.callErr("completion/complete", map[string]any{"ref": map[string]string{"type": "ref/other"}}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad ref: %v", err)
	}
	c2 := initialized(t, NewServer(nil))
	if err := c2.callErr("completion/complete", map[string]any{"ref": prompt}); err.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("completion without a handler: %v", err)
	}
}

func TestMatchTemplate(t *testing.T) {
	cases := []struct {
		tmpl, uri string
		want      map[string]string
	}{
		{"mcptest://item/{id}", "mcptest://item/7", map[string]string{"id": "7"}},
		{"a://{x}/b/{y}", "a://1/b/2", map[string]string{"x": "1", "y": "2"}},
		{"a://{x}.txt", "a://name.txt", map[string]string{"x": "name"}},
		{"a://{x}", "a://", nil},
		{"a://{x}", "a://1/2", nil},
		{"a://fixed", "a://fixed", map[string]string{}},
		{"a://fixed", "a://other", nil},
		{"a://{broken", "a://x", nil},
	}
	for _, tc := range cases {
		got, ok := matchTemplate(tc.tmpl, tc.uri)
		if ok != (tc.want != nil) || (ok && !mapsEqual(got, tc.want)) {
			t.Errorf("matchTemplate(%q, %q) = %v, %v; want %v", tc.tmpl, tc.uri, got, ok, tc.want)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
