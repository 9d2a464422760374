package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// A raw Conn().Call reaches a server that speaks only 2026-07-28, over a
// pipe and over Streamable HTTP: the engine adds the era's _meta, and
// keeps the caller's own _meta members beside it.
func TestRawCallInTheModernEra(t *testing.T) {
	for _, over := range []string{"pipe", "http"} {
		t.Run(over, func(t *testing.T) {
			srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
			var c *Client
			if over == "pipe" {
				c, _ = connectMCPTest(t, srv, modernPin)
			} else {
				c, _ = connectModernHTTP(t, srv)
			}
			raw, err := c.Conn().Call(t.Context(), MethodToolsList, nil, nil)
			if err != nil {
				t.Fatalf("raw tools/list: %v", err)
			}
			if !strings.Contains(string(raw), `"name":"add"`) {
				t.Errorf("raw tools/list result %s lists no add tool", raw)
			}
			params := json.RawMessage(`{"name":"add","arguments":{"a":2,"b":3},"_meta":{"trace":"t1"}}`)
			raw, err = c.Conn().Call(t.Context(), MethodToolsCall, params, nil)
			if err != nil {
				t.Fatalf("raw tools/call: %v", err)
			}
			if !strings.Contains(string(raw), `5`) {
				t.Errorf("raw tools/call result %s does not hold 5", raw)
			}
			reqs := srv.ModernRequests()
			last := reqs[len(reqs)-1]
			if last.Method != MethodToolsCall || last.ProtocolVersion != ModernProtocolVersion || last.ClientInfo == nil || last.ClientInfo.Name != "tester" {
				t.Errorf("the server got %s with version %q, info %+v", last.Method, last.ProtocolVersion, last.ClientInfo)
			}
			if !strings.Contains(string(last.Params), `"trace":"t1"`) {
				t.Errorf("the caller's own _meta was lost: %s", last.Params)
			}
		})
	}
}

// In the legacy era a raw call is sent as given.
func TestRawCallInTheLegacyEra(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	c, _ := connectMCPTest(t, srv, nil)
	if c.Modern() {
		t.Fatal("a legacy-only server gave a modern session")
	}
	raw, err := c.Conn().Call(t.Context(), MethodToolsCall, json.RawMessage(`{"name":"add","arguments":{"a":1,"b":1}}`), nil)
	if err != nil || !strings.Contains(string(raw), "2") {
		t.Fatalf("raw tools/call: %s, %v", raw, err)
	}
}
