package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// secretsServerName is the hidden command (see TestMain) that runs
// secretsServer: the test binary as a server that echoes its
// SECRET_A and SECRET_B environment values.
const secretsServerName = "__serve-secrets"

// The secrets inspect is given with --env: characters that JSON escapes
// (a quote, a backslash; <, > and & for encoding/json) and one it does
// not (ö).
const (
	secretA = `pa"ss\wörd-1`
	secretB = `k<e>y&wörd-2`
)

// escapeAll writes s as a JSON string with every character escaped
// (\u0070…): valid JSON, as a server may send it, in which the secret
// stands in no form an encoder of mcpwire's would write.
func escapeAll(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r) // all of them are in the BMP
	}
	b.WriteByte('"')
	return b.String()
}

// secretsServer answers with the secrets of its environment, escaped
// throughout: a tool's structured result and a tool's name (the one
// without a title, which the report names), and as they are in an MCP
// App view's HTML and a tool's text.
func secretsServer() int {
	a, b := os.Getenv("SECRET_A"), os.Getenv("SECRET_B")
	s := mcptest.NewServer(&mcptest.Options{})
	s.AddTool(mcptest.Tool{Name: "env", Title: "Env"}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return &mcptest.ToolResult{Content: []mcptest.Content{mcptest.TextContent(a)}, StructuredContent: json.RawMessage(`{"a":` + escapeAll(a) + `}`)}, nil
	})
	s.HandleMethod("tools/list", func(context.Context, *mcptest.Session, json.RawMessage) (any, error) {
		return json.RawMessage(`{"tools":[{"name":"env","title":"Env","inputSchema":{"type":"object"}},{"name":` + escapeAll(b) + `,"inputSchema":{"type":"object"}}]}`), nil
	})
	s.AddResource(mcptest.Resource{URI: "ui://env", Name: "env", MIMEType: "text/html;profile=mcp-app", Text: "<p>" + a + "</p>"})
	if err := s.ServeStdio(context.Background()); err != nil {
		return 1
	}
	return 0
}

// secretIn names the secret that b, a reply of the page or the export,
// holds: as it is, as encoding/json writes it, or in any string of the
// JSON values (one a line) b is made of.
func secretIn(b []byte, secrets ...string) string {
	for _, s := range secrets {
		q, _ := json.Marshal(s)
		if bytes.Contains(b, []byte(s)) || bytes.Contains(b, q[1:len(q)-1]) {
			return s
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var v any
		if dec.Decode(&v) != nil {
			return ""
		}
		if s := secretInValue(v, secrets); s != "" {
			return s
		}
	}
}

func secretInValue(v any, secrets []string) string {
	switch x := v.(type) {
	case string:
		for _, s := range secrets {
			if strings.Contains(x, s) {
				return s
			}
		}
	case []any:
		for _, e := range x {
			if s := secretInValue(e, secrets); s != "" {
				return s
			}
		}
	case map[string]any:
		for k, e := range x {
			if s := secretInValue(k, secrets); s != "" {
				return s
			}
			if s := secretInValue(e, secrets); s != "" {
				return s
			}
		}
	}
	return ""
}

// pageRequest sends a request to the page as the page itself would, and
// returns the reply's body.
func pageRequest(t *testing.T, c *http.Client, base, method, path, body string) []byte {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", originOf(base))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s %s", method, path, resp.Status, b)
	}
	return b
}

// A stdio server that echoes the secrets inspect was given with --env, in
// whatever JSON escapes, shows none of them on the page: not in an MCP
// App view or its tool calls, not in the report, not in the wire log's
// export.
func TestInspectMasksEscapedSecretsEverywhere(t *testing.T) {
	c, base := startInspect(t, "--env", "SECRET_A="+secretA, "--env", "SECRET_B="+secretB, "--", os.Args[0], secretsServerName)
	var servers []struct{ Name string }
	getJSON(t, c, base+"/api/servers", &servers)
	server := url.QueryEscape(servers[0].Name)
	name, _ := json.Marshal(servers[0].Name)
	view := pageRequest(t, c, base, http.MethodPost, "/api/apps/view", `{"server":`+string(name)+`,"uri":"ui://env"}`)
	var v struct{ ID string }
	if err := json.Unmarshal(view, &v); err != nil || v.ID == "" {
		t.Fatalf("the view: %s", view)
	}
	replies := map[string][]byte{
		"the view":            view,
		"the view's call":     pageRequest(t, c, base, http.MethodPost, "/api/apps/call", `{"view":"`+v.ID+`","name":"env","arguments":{}}`),
		"the view's read":     pageRequest(t, c, base, http.MethodPost, "/api/apps/read", `{"view":"`+v.ID+`","uri":"ui://env"}`),
		"the tools":           pageRequest(t, c, base, http.MethodGet, "/api/tools?server="+server, ""),
		"the report":          pageRequest(t, c, base, http.MethodGet, "/api/report?server="+server, ""),
		"the wire log export": pageRequest(t, c, base, http.MethodGet, "/api/wire.jsonl", ""),
	}
	for what, b := range replies {
		if s := secretIn(b, secretA, secretB); s != "" {
			t.Errorf("%s holds the secret %q:\n%s", what, s, b)
		}
	}
	// What was masked is still there, masked (the report reads the
	// tools' names from the wire log).
	if !bytes.Contains(replies["the report"], []byte(`tool \"[redacted]\"`)) || !bytes.Contains(replies["the wire log export"], []byte("[redacted]")) {
		t.Errorf("the report or the export lost the masked name:\n%s\n%s", replies["the report"], replies["the wire log export"])
	}
}
