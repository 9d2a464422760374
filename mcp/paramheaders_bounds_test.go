package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// Integers a JavaScript number cannot hold exactly, values past 1 KiB and
// headers past 8 KiB together make the call an error before it is sent;
// the largest safe integer and a value of exactly 1 KiB go through.
func TestParamHeaderBounds(t *testing.T) {
	one := []headerField{{"N", []string{"n"}}}
	for _, ok := range []string{"9007199254740991", "-9007199254740991", "9007199254740991.0", "9.007199254740991e15", `"` + strings.Repeat("a", maxParamHeaderValue) + `"`} {
		if _, err := paramHeaders(one, json.RawMessage(`{"n":`+ok+`}`)); err != nil {
			t.Errorf("%.40s: %v", ok, err)
		}
	}
	for _, bad := range []string{"9007199254740992", "-9007199254740993", "18446744073709551616", "1e300", "1e400", "9007199254740992.0", `"` + strings.Repeat("a", maxParamHeaderValue+1) + `"`} {
		_, err := paramHeaders(one, json.RawMessage(`{"n":`+bad+`}`))
		if !errors.Is(err, ErrParamHeader) || !strings.Contains(err.Error(), `argument "n" (Mcp-Param-N)`) {
			t.Errorf("%.40s: err = %v, want ErrParamHeader naming the argument", bad, err)
		}
	}
	var fields []headerField
	var args []string
	for i := range maxParamHeadersTotal/maxParamHeaderValue + 1 {
		fields = append(fields, headerField{fmt.Sprint("H", i), []string{fmt.Sprint("h", i)}})
		args = append(args, fmt.Sprintf(`"h%d":"%s"`, i, strings.Repeat("v", maxParamHeaderValue)))
	}
	if _, err := paramHeaders(fields, json.RawMessage("{"+strings.Join(args, ",")+"}")); !errors.Is(err, ErrParamHeader) || !strings.Contains(err.Error(), "together") {
		t.Errorf("%d headers of 1 KiB: err = %v, want the total refused", len(fields), err)
	}
	if _, err := paramHeaders(fields[1:], json.RawMessage("{"+strings.Join(args, ",")+"}")); err != nil {
		t.Errorf("8 headers of 1 KiB: %v", err)
	}
}

// A field whose schema marks it secret is never mirrored, even with a
// valid x-mcp-header; the ErrorHook hears of it.
func TestParamHeaderSecretFields(t *testing.T) {
	fields, secret, err := toolHeaderFields(json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"token":{"type":"string","writeOnly":true,"x-mcp-header":"Token"},
		"password":{"type":"string","format":"password","x-mcp-header":"Password"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(fields) != 1 || fields[0].name != "Region" || len(secret) != 2 {
		t.Fatalf("fields %+v, secret %q: want only Region mirrored and two secret fields", fields, secret)
	}

	srv := mcptest.NewServer(&mcptest.Options{Eras: mcptest.ModernOnly})
	srv.AddTool(mcptest.Tool{Name: "login", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"user":{"type":"string","x-mcp-header":"User"},
		"pass":{"type":"string","format":"password","x-mcp-header":"Pass"},
		"n":{"type":"integer","x-mcp-header":"N"}}}`)},
		func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
			return mcptest.TextResult("ok"), nil
		})
	hs := mcptest.NewHTTPServer(t, srv, nil)
	var hook hookErrors
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, modernWith(func(o *ClientOptions) { o.ErrorHook = hook.add }))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	if errs := hook.list(); len(errs) != 1 || !strings.Contains(errs[0].Error(), `"Pass"`) || !strings.Contains(errs[0].Error(), "secret") {
		t.Errorf("ErrorHook heard %v, want one note on Pass", errs)
	}
	const secretValue = "hunter2-SECRET"
	c.CallTool(t.Context(), "login", map[string]any{"user": "ann", "pass": secretValue}, nil)
	// An unsafe integer: refused before anything is sent.
	before := len(hs.Requests())
	if _, err := c.CallTool(t.Context(), "login", map[string]any{"user": "ann", "n": int64(1) << 60}, nil); !errors.Is(err, ErrParamHeader) {
		t.Errorf("n = 2^60: err = %v, want ErrParamHeader", err)
	}
	if n := len(hs.Requests()); n != before {
		t.Errorf("%d requests sent for a call refused before sending", n-before)
	}
	calls := 0
	for _, r := range hs.Requests() {
		if r.Header.Get("Mcp-Method") != "tools/call" {
			continue
		}
		calls++
		if r.Header.Get("Mcp-Param-User") == "" {
			t.Errorf("the call lacks Mcp-Param-User")
		}
		for k, v := range r.Header {
			if strings.Contains(strings.Join(v, " "), secretValue) || strings.Contains(strings.Join(v, " "), "aHVudGVy") {
				t.Errorf("header %s carries the secret: %q", k, v)
			}
		}
	}
	if calls == 0 {
		t.Fatal("no tools/call was sent")
	}
}
