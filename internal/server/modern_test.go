package server

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// modernMeta is the _meta a modern client puts on every request.
func modernMeta(caps map[string]any) map[string]any {
	if caps == nil {
		caps = map[string]any{}
	}
	return map[string]any{
		MetaProtocolVersion:    ModernProtocolVersion,
		MetaClientCapabilities: caps,
		MetaClientInfo:         map[string]string{"name": "modern-test", "version": "0.2"},
	}
}

// withMeta returns params with _meta added.
func withMeta(params map[string]any, meta map[string]any) map[string]any {
	out := map[string]any{"_meta": meta}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// modernResult is the part of every modern result the tests look at.
type modernResult struct {
	ResultType    string                     `json:"resultType"`
	Meta          map[string]json.RawMessage `json:"_meta"`
	TTLMillis     *int64                     `json:"ttlMs"`
	CacheScope    string                     `json:"cacheScope"`
	InputRequests map[string]inputRequest    `json:"inputRequests"`
	RequestState  string                     `json:"requestState"`
}

func decodeModern(t testing.TB, raw json.RawMessage) modernResult {
	t.Helper()
	var r modernResult
	mustJSON(t, raw, &r)
	return r
}

func TestModernDiscoverOverStdio(t *testing.T) {
	srv := NewDefault(&Options{Instructions: "use echo"})
	c, _ := pipeClient(t, srv)
	raw := c.call("server/discover", map[string]any{"_meta": modernMeta(nil)})
	var d struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage `json:"capabilities"`
		Instructions      string                     `json:"instructions"`
	}
	mustJSON(t, raw, &d)
	if !slices.Equal(d.SupportedVersions, []string{ModernProtocolVersion}) {
		t.Errorf("supportedVersions = %v, want [%s]", d.SupportedVersions, ModernProtocolVersion)
	}
	if _, ok := d.Capabilities["tools"]; !ok {
		t.Errorf("capabilities %v lack tools", d.Capabilities)
	}
	if d.Instructions != "use echo" {
		t.Errorf("instructions = %q", d.Instructions)
	}
	r := decodeModern(t, raw)
	if r.ResultType != "complete" {
		t.Errorf("resultType = %q, want complete", r.ResultType)
	}
	var info Implementation
	mustJSON(t, r.Meta[MetaServerInfo], &info)
	if info.Name != "mcptest" || info.Version != "1.0.0" {
		t.Errorf("serverInfo = %+v", info)
	}
	if r.TTLMillis == nil || *r.TTLMillis != 0 || r.CacheScope != "private" {
		t.Errorf("ttlMs %v cacheScope %q, want 0 and private by default", r.TTLMillis, r.CacheScope)
	}
	got := srv.ModernRequests()
	if len(got) != 1 || got[0].Method != "server/discover" || got[0].ProtocolVersion != ModernProtocolVersion ||
		got[0].ClientInfo == nil || got[0].ClientInfo.Name != "modern-test" || string(got[0].ClientCapabilities) != "{}" {
		t.Errorf("ModernRequests = %+v", got)
	}
}

func TestModernRejectsBadMeta(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	meta := modernMeta(nil)
	meta[MetaProtocolVersion] = "2099-01-01"
	e := c.callErr("tools/list", map[string]any{"_meta": meta})
	if e.Code != CodeUnsupportedProtocolVersion {
		t.Fatalf("code %d, want %d: %v", e.Code, CodeUnsupportedProtocolVersion, e)
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	mustJSON(t, e.Data, &data)
	if !slices.Equal(data.Supported, []string{ModernProtocolVersion}) || data.Requested != "2099-01-01" {
		t.Errorf("data = %+v", data)
	}

	noCaps := modernMeta(nil)
	delete(noCaps, MetaClientCapabilities)
	e = c.callErr("tools/list", map[string]any{"_meta": noCaps})
	if e.Code != jsonrpc.CodeInvalidParams || !strings.Contains(e.Message, MetaClientCapabilities) {
		t.Errorf("without clientCapabilities: %v, want -32602 naming the key", e)
	}
	badLevel := modernMeta(nil)
	badLevel[MetaLogLevel] = "loud"
	e = c.callErr("tools/list", map[string]any{"_meta": badLevel})
	if e.Code != jsonrpc.CodeInvalidParams || !strings.Contains(e.Message, MetaLogLevel) {
		t.Errorf("bad log level: %v, want -32602 naming the key", e)
	}
}

func TestModernRemovedMethods(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	for _, method := range []string{"ping", "logging/setLevel", "resources/subscribe", "initialize/nothing"} {
		e := c.callErr(method, map[string]any{"_meta": modernMeta(nil), "level": "debug", "uri": "mcptest://static/readme"})
		if e.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s: %v, want -32601", method, e)
		}
	}
}

func TestModernMissingResourceIsInvalidParams(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	e := c.callErr("resources/read", map[string]any{"_meta": modernMeta(nil), "uri": "mcptest://nothing/here"})
	if e.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("modern: %v, want -32602", e)
	}
	legacy, _ := pipeClient(t, NewDefault(nil))
	legacy.initialize(LatestProtocolVersion)
	if e := legacy.callErr("resources/read", map[string]any{"uri": "mcptest://nothing/here"}); e.Code != jsonrpc.CodeResourceNotFound {
		t.Errorf("legacy: %v, want -32002 unchanged", e)
	}
}

func TestErasSwitch(t *testing.T) {
	discover := map[string]any{"_meta": modernMeta(nil)}
	initParams := map[string]any{"protocolVersion": LatestProtocolVersion, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "legacy", "version": "1"}}

	t.Run("modern only rejects initialize naming its versions", func(t *testing.T) {
		c, _ := pipeClient(t, NewDefault(&Options{Eras: ModernOnly}))
		e := c.callErr("initialize", initParams)
		if e.Code != CodeUnsupportedProtocolVersion || !strings.Contains(e.Message, ModernProtocolVersion) {
			t.Fatalf("initialize: %v, want -32022 naming %s", e, ModernProtocolVersion)
		}
		var data struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}
		mustJSON(t, e.Data, &data)
		if data.Requested != LatestProtocolVersion || !slices.Equal(data.Supported, []string{ModernProtocolVersion}) {
			t.Errorf("data = %+v", data)
		}
		c.call("server/discover", discover)
	})
	t.Run("legacy only answers discover as before", func(t *testing.T) {
		c, _ := pipeClient(t, NewDefault(&Options{Eras: LegacyOnly}))
		if e := c.callErr("server/discover", discover); e.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("before initialize: %v, want -32600", e)
		}
		c.initialize(LatestProtocolVersion)
		if e := c.callErr("server/discover", discover); e.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("after initialize: %v, want -32601", e)
		}
	})
	t.Run("both: initialize makes the connection legacy", func(t *testing.T) {
		c, _ := pipeClient(t, NewDefault(nil))
		c.initialize(LatestProtocolVersion)
		if e := c.callErr("server/discover", discover); e.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("discover after initialize: %v, want -32601", e)
		}
		var res map[string]json.RawMessage
		mustJSON(t, c.call("tools/list", map[string]any{"_meta": modernMeta(nil)}), &res)
		if _, ok := res["resultType"]; ok {
			t.Errorf("a legacy session's result has resultType: %v", res)
		}
	})
	t.Run("both: a modern request is served without initialize", func(t *testing.T) {
		c, _ := pipeClient(t, NewDefault(nil))
		if r := decodeModern(t, c.call("tools/list", map[string]any{"_meta": modernMeta(nil)})); r.ResultType != "complete" {
			t.Errorf("resultType %q", r.ResultType)
		}
	})
}

func TestParseEras(t *testing.T) {
	for _, e := range []Eras{BothEras, ModernOnly, LegacyOnly} {
		got, err := parseEras(e.String())
		if err != nil || got != e {
			t.Errorf("parseEras(%q) = %v, %v", e.String(), got, err)
		}
	}
	if _, err := parseEras("future"); err == nil || !strings.Contains(err.Error(), `"future"`) {
		t.Errorf("parseEras(future) = %v, want an error naming it", err)
	}
}

func TestModernCacheHints(t *testing.T) {
	srv := NewDefault(nil)
	srv.SetCacheHint("tools/list", CacheHint{TTLMillis: 60000, Scope: "public"})
	c, _ := pipeClient(t, srv)
	r := decodeModern(t, c.call("tools/list", map[string]any{"_meta": modernMeta(nil)}))
	if r.TTLMillis == nil || *r.TTLMillis != 60000 || r.CacheScope != "public" {
		t.Errorf("tools/list ttlMs %v cacheScope %q, want 60000 public", r.TTLMillis, r.CacheScope)
	}
	r = decodeModern(t, c.call("tools/call", map[string]any{"_meta": modernMeta(nil), "name": "echo", "arguments": map[string]string{"message": "x"}}))
	if r.TTLMillis != nil || r.CacheScope != "" {
		t.Errorf("tools/call carries cache fields: %v %q", r.TTLMillis, r.CacheScope)
	}
}

func TestModernLogLevelPerRequest(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	call := func(meta map[string]any) (string, []string) {
		res := decodeToolResult(t, c.call("tools/call", map[string]any{"_meta": meta, "name": "log", "arguments": map[string]string{"level": "info", "message": "hello"}}))
		notes := methodsOf(c.notes)
		c.notes = nil
		return res.text(), notes
	}
	if text, notes := call(modernMeta(nil)); text != "filtered by the client's log level" || len(notes) != 0 {
		t.Errorf("without a level: %q, notes %v; want nothing sent", text, notes)
	}
	meta := modernMeta(nil)
	meta[MetaLogLevel] = "debug"
	if text, notes := call(meta); text != "sent" || !slices.Equal(notes, []string{"notifications/message"}) {
		t.Errorf("with level debug: %q, notes %v", text, notes)
	}
	meta[MetaLogLevel] = "error"
	if text, _ := call(meta); text != "filtered by the client's log level" {
		t.Errorf("with level error: %q", text)
	}
}

var elicitCaps = map[string]any{"elicitation": map[string]any{}}

func TestModernInputRequiredRoundTrip(t *testing.T) {
	srv := NewDefault(nil)
	c, _ := pipeClient(t, srv)
	params := map[string]any{"name": "elicit", "arguments": map[string]string{"message": "who?"}}
	r := decodeModern(t, c.call("tools/call", withMeta(params, modernMeta(elicitCaps))))
	if r.ResultType != "input_required" || r.RequestState == "" || len(r.InputRequests) != 1 {
		t.Fatalf("first round: %+v", r)
	}
	ask := r.InputRequests["mcptest-1"]
	var p struct {
		Message string `json:"message"`
	}
	mustJSON(t, ask.Params, &p)
	if ask.Method != "elicitation/create" || p.Message != "who?" {
		t.Fatalf("input request %+v", ask)
	}
	retry := withMeta(params, modernMeta(elicitCaps))
	retry["inputResponses"] = map[string]any{"mcptest-1": map[string]any{"action": "accept", "content": map[string]string{"name": "ada"}}}
	retry["requestState"] = r.RequestState
	raw := c.call("tools/call", retry)
	if r := decodeModern(t, raw); r.ResultType != "complete" {
		t.Fatalf("retry: %s", raw)
	}
	if res := decodeToolResult(t, raw); !strings.Contains(res.text(), `"ada"`) || res.IsError {
		t.Errorf("retry result %s", raw)
	}
	for _, f := range c.frames {
		if m, _ := jsonrpc.DecodeMessage([]byte(f)); m != nil {
			if _, isReq := m.(*jsonrpc.Request); isReq {
				t.Errorf("the server sent a request in the modern era: %s", f)
			}
		}
	}
}

func TestModernInputNeedsDeclaredCapability(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	e := c.callErr("tools/call", map[string]any{"_meta": modernMeta(nil), "name": "elicit", "arguments": map[string]any{}})
	if e.Code != CodeMissingClientCapability {
		t.Fatalf("%v, want -32021", e)
	}
	var data struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	mustJSON(t, e.Data, &data)
	if _, ok := data.Required["elicitation"]; !ok || len(data.Required) != 1 {
		t.Errorf("requiredCapabilities %v, want elicitation", data.Required)
	}
}

func TestModernRequestStateIsChecked(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	first := decodeModern(t, c.call("tools/call", map[string]any{"_meta": modernMeta(elicitCaps), "name": "elicit", "arguments": map[string]any{}}))
	for name, state := range map[string]string{
		"garbage":          "%%%not-base64",
		"not json":         "bm90IGpzb24",
		"another tool's":   first.RequestState,
		"another method's": encodeRequestState(requestState{Method: "prompts/get", Name: "elicit"}),
	} {
		tool := "elicit"
		if name == "another tool's" {
			tool = "echo"
		}
		e := c.callErr("tools/call", map[string]any{"_meta": modernMeta(elicitCaps), "name": tool, "arguments": map[string]any{}, "requestState": state})
		if e.Code != jsonrpc.CodeInvalidParams || !strings.Contains(e.Message, "requestState") {
			t.Errorf("%s state: %v, want -32602 about requestState", name, e)
		}
	}
}

// askTwice asks for an elicitation, then a sampling, then answers with both.
func askTwice(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
	first, err := req.Session.Elicit(ctx, map[string]any{"message": "first"})
	if err != nil {
		return nil, err
	}
	second, err := req.Session.CreateMessage(ctx, map[string]any{"messages": []any{}, "maxTokens": 1})
	if err != nil {
		return nil, err
	}
	return TextResult(string(first) + " " + string(second)), nil
}

func TestModernInputOverSeveralRounds(t *testing.T) {
	srv := NewServer(nil)
	srv.AddTool(Tool{Name: "ask-twice"}, askTwice)
	c, _ := pipeClient(t, srv)
	caps := map[string]any{"elicitation": map[string]any{}, "sampling": map[string]any{}}
	params := func() map[string]any {
		return withMeta(map[string]any{"name": "ask-twice"}, modernMeta(caps))
	}
	r1 := decodeModern(t, c.call("tools/call", params()))
	if r1.InputRequests["mcptest-1"].Method != "elicitation/create" || len(r1.InputRequests) != 1 {
		t.Fatalf("round 1 asks %+v", r1.InputRequests)
	}
	p2 := params()
	p2["requestState"] = r1.RequestState
	p2["inputResponses"] = map[string]any{"mcptest-1": map[string]string{"action": "accept"}, "unasked": map[string]string{}}
	r2 := decodeModern(t, c.call("tools/call", p2))
	if r2.InputRequests["mcptest-2"].Method != "sampling/createMessage" || len(r2.InputRequests) != 1 {
		t.Fatalf("round 2 asks %+v", r2.InputRequests)
	}
	// Round 3 answers only the latest question: the first answer comes
	// back from the state.
	p3 := params()
	p3["requestState"] = r2.RequestState
	p3["inputResponses"] = map[string]any{"mcptest-2": map[string]string{"role": "assistant"}}
	res := decodeToolResult(t, c.call("tools/call", p3))
	if want := `{"action":"accept"} {"role":"assistant"}`; res.text() != want {
		t.Errorf("final text %q, want %q", res.text(), want)
	}
	// A retry that leaves the question unanswered is asked again.
	p4 := params()
	p4["requestState"] = r1.RequestState
	r4 := decodeModern(t, c.call("tools/call", p4))
	if r4.InputRequests["mcptest-1"].Method != "elicitation/create" {
		t.Errorf("unanswered retry asks %+v", r4.InputRequests)
	}
}

func TestModernLoadShedding(t *testing.T) {
	srv := NewDefault(nil)
	srv.ShedLoad(1)
	c, _ := pipeClient(t, srv)
	params := map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}}
	raw := c.call("tools/call", withMeta(params, modernMeta(nil)))
	var shed struct {
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
	}
	mustJSON(t, raw, &shed)
	r := decodeModern(t, raw)
	if r.ResultType != "input_required" || shed.InputRequests == nil || len(shed.InputRequests) != 0 || r.RequestState == "" {
		t.Fatalf("shed result %s, want input_required with empty inputRequests and a state", raw)
	}
	retry := withMeta(params, modernMeta(nil))
	retry["requestState"] = r.RequestState
	if res := decodeToolResult(t, c.call("tools/call", retry)); res.text() != "hi" {
		t.Errorf("retry answered %q", res.text())
	}
}

func TestModernPromptAsksThroughContext(t *testing.T) {
	srv := NewServer(nil)
	srv.AddPrompt(Prompt{Name: "greet"}, func(ctx context.Context, _ map[string]string) (*PromptResult, error) {
		ss := SessionFromContext(ctx)
		if ss == nil {
			return nil, errors.New("SessionFromContext: nil in a prompt handler")
		}
		roots, err := ss.ListRoots(ctx)
		if err != nil {
			return nil, err
		}
		return &PromptResult{Messages: []PromptMessage{{Role: "user", Content: TextContent(string(roots))}}}, nil
	})
	c, _ := pipeClient(t, srv)
	caps := map[string]any{"roots": map[string]any{}}
	r := decodeModern(t, c.call("prompts/get", withMeta(map[string]any{"name": "greet"}, modernMeta(caps))))
	if r.ResultType != "input_required" || r.InputRequests["mcptest-1"].Method != "roots/list" {
		t.Fatalf("prompts/get: %+v", r)
	}
	retry := withMeta(map[string]any{"name": "greet"}, modernMeta(caps))
	retry["requestState"] = r.RequestState
	retry["inputResponses"] = map[string]any{"mcptest-1": map[string]any{"roots": []any{}}}
	var got struct {
		Messages []struct {
			Content struct{ Text string } `json:"content"`
		} `json:"messages"`
	}
	mustJSON(t, c.call("prompts/get", retry), &got)
	if len(got.Messages) != 1 || got.Messages[0].Content.Text != `{"roots":[]}` {
		t.Errorf("prompt result %+v", got)
	}
}

func TestModernListenOverStdio(t *testing.T) {
	srv := NewDefault(nil)
	c, _ := pipeClient(t, srv)
	id := c.request("subscriptions/listen", withMeta(map[string]any{"notifications": map[string]any{
		"promptsListChanged": true, "resourceSubscriptions": []string{"mcptest://static/readme"},
	}}, modernMeta(nil)))
	nextNote := func() *jsonrpc.Notification {
		t.Helper()
		m, _ := c.next()
		n, ok := m.(*jsonrpc.Notification)
		if !ok {
			t.Fatalf("got %#v, want a notification", m)
		}
		return n
	}
	ack := nextNote()
	var ackP struct {
		Meta          map[string]json.RawMessage `json:"_meta"`
		Notifications listenFilter               `json:"notifications"`
	}
	mustJSON(t, ack.Params, &ackP)
	if ack.Method != "notifications/subscriptions/acknowledged" || string(ackP.Meta[MetaSubscriptionID]) != "1" ||
		ackP.Notifications.ToolsListChanged || !ackP.Notifications.PromptsListChanged ||
		!slices.Equal(ackP.Notifications.ResourceSubscriptions, []string{"mcptest://static/readme"}) {
		t.Errorf("ack %s %s", ack.Method, ack.Params)
	}
	// Changes the client did not opt in to are never sent: notifications
	// of a subscription go out in order, so the first one after these is
	// the prompts change.
	srv.AddTool(Tool{Name: "not-watched"}, nil)
	srv.AddResource(Resource{URI: "mcptest://static/new", Name: "new"})
	srv.ResourceUpdated("mcptest://static/other")
	srv.AddPrompt(Prompt{Name: "watched"}, nil)
	if n := nextNote(); n.Method != "notifications/prompts/list_changed" || !strings.Contains(string(n.Params), `"`+MetaSubscriptionID+`":1`) {
		t.Errorf("got %s %s, want prompts/list_changed with the subscription id", n.Method, n.Params)
	}
	srv.ResourceUpdated("mcptest://static/readme")
	if n := nextNote(); n.Method != "notifications/resources/updated" || !strings.Contains(string(n.Params), `"uri":"mcptest://static/readme"`) || !strings.Contains(string(n.Params), MetaSubscriptionID) {
		t.Errorf("got %s %s, want resources/updated of the readme", n.Method, n.Params)
	}

	srv.EndSubscriptions()
	resp := c.await(id)
	if r := decodeModern(t, resp.Result); resp.Error != nil || r.ResultType != "complete" || string(r.Meta[MetaSubscriptionID]) != "1" {
		t.Errorf("graceful end: %+v %s", resp.Error, resp.Result)
	}
}

func TestModernListenCancelledOverStdio(t *testing.T) {
	srv := NewDefault(nil)
	c, _ := pipeClient(t, srv)
	id := c.request("subscriptions/listen", withMeta(map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, modernMeta(nil)))
	c.awaitNote("notifications/subscriptions/acknowledged")
	c.notify(jsonrpc.MethodCancelled, map[string]any{"requestId": id})
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	if err := srv.Sessions()[0].WaitCancelled(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := srv.Listeners(); n != 0 {
		t.Errorf("%d listeners after the cancel", n)
	}
	srv.AddTool(Tool{Name: "after"}, nil)
	// The discover response must be the next message: no list_changed (and
	// no response to the cancelled listen) comes first.
	did := c.request("server/discover", map[string]any{"_meta": modernMeta(nil)})
	m, _ := c.next()
	if r, ok := m.(*jsonrpc.Response); !ok || r.ID != did {
		t.Errorf("after the cancel got %#v, want the discover response", m)
	}
}

func TestModernChildProcess(t *testing.T) {
	c := startChild(t, map[string]string{EnvEras: "modern"})
	if e := c.callErr("initialize", map[string]any{"protocolVersion": LatestProtocolVersion, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "x", "version": "1"}}); e.Code != CodeUnsupportedProtocolVersion {
		t.Errorf("initialize to a modern-only child: %v, want -32022", e)
	}
	r := decodeModern(t, c.call("server/discover", map[string]any{"_meta": modernMeta(nil)}))
	if r.ResultType != "complete" {
		t.Errorf("discover resultType %q", r.ResultType)
	}
	if code := c.exit(t); code != 0 {
		t.Errorf("exit status %d; stderr: %s", code, c.stderr.String())
	}
}
