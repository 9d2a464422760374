package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/internal/paramheader"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// headerTools serves a tool with x-mcp-header fields (nested too), one
// with an invalid annotation and one without any.
func headerTools(srv *mcptest.Server) {
	ok := func(_ context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return mcptest.TextResult("ok " + req.Name), nil
	}
	srv.AddTool(mcptest.Tool{Name: "route", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"priority":{"type":"integer","x-mcp-header":"Priority"},
		"verbose":{"type":"boolean","x-mcp-header":"Verbose"},
		"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"query":{"type":"string"}}}`)}, ok)
	srv.AddTool(mcptest.Tool{Name: "scored", InputSchema: json.RawMessage(`{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}`)}, ok)
	srv.AddTool(mcptest.Tool{Name: "plain", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}, ok)
}

type hookErrors struct {
	mu   sync.Mutex
	errs []error
}

func (h *hookErrors) add(err error) { h.mu.Lock(); h.errs = append(h.errs, err); h.mu.Unlock() }
func (h *hookErrors) list() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.errs...)
}

// In the modern era over Streamable HTTP, tools/call mirrors the
// x-mcp-header fields into Mcp-Param headers (which mcptest checks against
// the body, refusing a mismatch with -32020), and a tool with invalid
// annotations is left out of the list with the reason to the ErrorHook.
func TestModernParamHeaders(t *testing.T) {
	srv := mcptest.NewServer(&mcptest.Options{Eras: mcptest.ModernOnly})
	headerTools(srv)
	hs := mcptest.NewHTTPServer(t, srv, nil)
	var hook hookErrors
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, modernWith(func(o *ClientOptions) { o.ErrorHook = hook.add }))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "route,plain" && strings.Join(names, ",") != "plain,route" {
		t.Errorf("listed %v, want route and plain (scored has an x-mcp-header on a number)", names)
	}
	var left bool
	for _, e := range hook.list() {
		if errors.Is(e, ErrInvalidToolHeaders) && strings.Contains(e.Error(), `"scored"`) && strings.Contains(e.Error(), "number") {
			left = true
		}
	}
	if !left {
		t.Errorf("the ErrorHook did not hear why scored was left out: %v", hook.list())
	}

	args := map[string]any{"region": "Hello, 世界", "priority": 42, "verbose": nil, "target": map[string]any{"zone": " b "}, "query": "SELECT 1"}
	res, err := c.CallTool(t.Context(), "route", args, nil)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := toolText(t, res); got != "ok route" {
		t.Errorf("result %q", got)
	}
	var call *mcptest.RecordedRequest
	for _, r := range hs.Requests() {
		if r.Header.Get("Mcp-Method") == "tools/call" {
			call = &r
		}
	}
	if call == nil {
		t.Fatal("no tools/call was recorded")
	}
	want := map[string]string{
		"Mcp-Param-Region":   "=?base64?SGVsbG8sIOS4lueVjA==?=",
		"Mcp-Param-Priority": "42",
		"Mcp-Param-Zone":     "=?base64?IGIg?=",
	}
	for k, v := range want {
		if got := call.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for k := range call.Header {
		if strings.HasPrefix(k, "Mcp-Param-") && want[k] == "" {
			t.Errorf("unexpected header %s: %q (null and unannotated fields have none)", k, call.Header.Get(k))
		}
	}
	if _, err := c.CallTool(t.Context(), "plain", map[string]any{"q": "x"}, nil); err != nil {
		t.Errorf("plain: %v", err)
	}
}

// A tool called before it was listed goes out without its Mcp-Param
// headers; the server refuses it with -32020, and the client lists the
// tools and sends the call once more, now with them.
func TestModernParamHeadersRelist(t *testing.T) {
	srv := mcptest.NewServer(&mcptest.Options{Eras: mcptest.ModernOnly})
	headerTools(srv)
	c, hs := connectModernHTTP(t, srv)
	res, err := c.CallTool(t.Context(), "route", map[string]any{"region": "us-west1"}, nil)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	toolText(t, res)
	var seq []string
	for _, r := range hs.Requests() {
		m := r.Header.Get("Mcp-Method")
		if m == "tools/call" {
			m += ":" + r.Header.Get("Mcp-Param-Region") + ":" + http.StatusText(r.Status)
		}
		seq = append(seq, m)
	}
	got := strings.Join(seq, " ")
	if want := "server/discover tools/call::Bad Request tools/list tools/call:us-west1:OK"; got != want {
		t.Errorf("requests %q, want %q", got, want)
	}
}

// Without a change to learn from the listing, a -32020 is returned as is
// (once, not in a loop).
func TestModernParamHeadersMismatchReturned(t *testing.T) {
	srv := mcptest.NewServer(&mcptest.Options{Eras: mcptest.ModernOnly})
	headerTools(srv)
	hs := mcptest.NewHTTPServer(t, srv, nil)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL, HTTPClient: &http.Client{Transport: dropHeader{"Mcp-Param-Region"}}}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.CallTool(t.Context(), "route", map[string]any{"region": "us-west1"}, nil)
	if err == nil || !strings.Contains(err.Error(), "Mcp-Param-Region") || !strings.Contains(err.Error(), "-32020") {
		t.Fatalf("err = %v, want a -32020 naming Mcp-Param-Region", err)
	}
	calls := 0
	for _, r := range hs.Requests() {
		if r.Header.Get("Mcp-Method") == "tools/call" {
			calls++
		}
	}
	if calls != 2 {
		t.Errorf("%d tools/call sent, want 2 (the first, and one after listing)", calls)
	}
}

// The legacy era knows nothing of x-mcp-header: every tool is listed.
func TestLegacyKeepsHeaderTools(t *testing.T) {
	srv := mcptest.NewServer(nil)
	headerTools(srv)
	c, _ := connectMCPTest(t, srv, &ClientOptions{})
	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 3 {
		t.Errorf("listed %d tools, want 3", len(tools))
	}
}

func TestToolHeaderFields(t *testing.T) {
	valid := map[string]string{
		"none":       `{"type":"object","properties":{"a":{"type":"string"}}}`,
		"nested":     `{"type":"object","properties":{"t":{"type":"object","properties":{"z":{"type":"string","x-mcp-header":"Zone"}}}}}`,
		"in default": `{"type":"object","properties":{"a":{"type":"object","default":{"x-mcp-header":"no"}}}}`,
		"three":      `{"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"integer","x-mcp-header":"B"},"c":{"type":"boolean","x-mcp-header":"c-1"}}}`,
	}
	for name, schema := range valid {
		if _, _, err := toolHeaderFields(json.RawMessage(schema)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	invalid := map[string]string{
		"empty":          `{"properties":{"v":{"type":"string","x-mcp-header":""}}}`,
		"object":         `{"properties":{"v":{"type":"object","x-mcp-header":"Data"}}}`,
		"array":          `{"properties":{"v":{"type":"array","items":{"type":"string"},"x-mcp-header":"Items"}}}`,
		"null":           `{"properties":{"v":{"type":"null","x-mcp-header":"Nil"}}}`,
		"number":         `{"properties":{"v":{"type":"number","x-mcp-header":"Score"}}}`,
		"no type":        `{"properties":{"v":{"x-mcp-header":"V"}}}`,
		"same case":      `{"properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}}`,
		"other case":     `{"properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}`,
		"space":          `{"properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}`,
		"colon":          `{"properties":{"v":{"type":"string","x-mcp-header":"Region:Primary"}}}`,
		"non-ASCII":      `{"properties":{"v":{"type":"string","x-mcp-header":"Région"}}}`,
		"control":        `{"properties":{"v":{"type":"string","x-mcp-header":"Region\t1"}}}`,
		"not a string":   `{"properties":{"v":{"type":"string","x-mcp-header":7}}}`,
		"root":           `{"type":"string","x-mcp-header":"Root"}`,
		"under items":    `{"properties":{"v":{"type":"array","items":{"type":"string","x-mcp-header":"I"}}}}`,
		"under anyOf":    `{"anyOf":[{"properties":{"v":{"type":"string","x-mcp-header":"A"}}}]}`,
		"under $defs":    `{"$defs":{"d":{"type":"string","x-mcp-header":"D"}},"properties":{"v":{"$ref":"#/$defs/d"}}}`,
		"under if/then":  `{"if":{"properties":{"v":{"type":"string","x-mcp-header":"A"}}}}`,
		"props in items": `{"properties":{"v":{"items":{"properties":{"w":{"type":"string","x-mcp-header":"W"}}}}}}`,
	}
	for name, schema := range invalid {
		if _, _, err := toolHeaderFields(json.RawMessage(schema)); err == nil {
			t.Errorf("%s: accepted %s", name, schema)
		}
	}
}

func TestParamHeaderValues(t *testing.T) {
	fields := []headerField{{"S", []string{"s"}}, {"I", []string{"i"}}, {"F", []string{"f"}}, {"B", []string{"b"}}, {"N", []string{"n"}}, {"O", []string{"o"}}, {"D", []string{"d", "e"}}, {"Frac", []string{"frac"}}}
	got, err := paramHeaders(fields, json.RawMessage(`{"s":"x y","i":-7,"f":1e2,"b":false,"n":null,"o":{},"d":{"e":"deep"},"frac":1.5}`))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, h := range got {
		parts = append(parts, h.Name+"="+h.Value)
	}
	if s, want := strings.Join(parts, ","), "S=x y,I=-7,F=100,B=false,D=deep"; s != want {
		t.Errorf("headers %q, want %q", s, want)
	}
}

// Schemas come from the server: no input may panic, and every field found
// names a token on a non-empty path.
func FuzzToolHeaderFields(f *testing.F) {
	f.Add([]byte(`{"properties":{"a":{"type":"string","x-mcp-header":"A"},"t":{"properties":{"z":{"type":"integer","x-mcp-header":"Z"}}}}}`))
	f.Add([]byte(`{"properties":{"v":{"type":"array","items":{"x-mcp-header":"I"}}}}`))
	f.Add([]byte(`{"x-mcp-header":"","properties":[1,{"x-mcp-header":null}]}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		fields, _, err := toolHeaderFields(schema)
		if err != nil {
			return
		}
		for _, fl := range fields {
			if !paramheader.ValidName(fl.name) || len(fl.path) == 0 {
				t.Fatalf("field %+v from %s", fl, schema)
			}
		}
		if hs, err := paramHeaders(fields, schema); err == nil {
			total := 0
			for _, h := range hs {
				total += len(h.Value)
				if len(h.Value) > maxParamHeaderValue {
					t.Fatalf("header %s of %d bytes", h.Name, len(h.Value))
				}
			}
			if total > maxParamHeadersTotal {
				t.Fatalf("headers of %d bytes together", total)
			}
		} else if !errors.Is(err, ErrParamHeader) {
			t.Fatalf("paramHeaders: %v", err)
		}
	})
}

// A tool call whose reply stream broke, sent again under a new id (with
// ReplayToolCalls), carries its Mcp-Param headers again.
func TestModernParamHeadersOnReissue(t *testing.T) {
	srv := mcptest.NewServer(&mcptest.Options{Eras: mcptest.ModernOnly})
	headerTools(srv)
	hs := mcptest.NewHTTPServer(t, srv, nil)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL, ReplayToolCalls: true}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	hs.Streamable.CutNextStream("route")
	if _, err := c.CallTool(t.Context(), "route", map[string]any{"region": "eu-1", "priority": 3}, nil); err != nil {
		t.Fatalf("CallTool over a broken stream: %v", err)
	}
	var sent []string
	for _, r := range hs.Requests() {
		if r.Header.Get("Mcp-Method") == "tools/call" {
			sent = append(sent, r.Header.Get("Mcp-Param-Region")+"/"+r.Header.Get("Mcp-Param-Priority"))
		}
	}
	if strings.Join(sent, " ") != "eu-1/3 eu-1/3" {
		t.Errorf("tools/call headers %q, want the same headers on both POSTs", sent)
	}
}
