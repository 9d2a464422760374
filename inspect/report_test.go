package inspect

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// faultyServer gets each check wrong at least once: a duplicate name, a
// schema that is not JSON Schema and one that is not an object, missing
// titles, a result that fails its outputSchema, a log message without
// the logging capability, a response to an id nobody used and a line
// that is not JSON-RPC.
func faultyServer() *mcptest.Server {
	srv := mcptest.NewServer(&mcptest.Options{Capabilities: json.RawMessage(`{"tools":{}}`)})
	obj := json.RawMessage(`{"type":"object"}`)
	srv.SetTools([]mcptest.Tool{
		{Name: "dup", Title: "Dup", InputSchema: obj},
		{Name: "dup", Title: "Dup again", InputSchema: obj},
		{Name: "bad-schema", Title: "Bad", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"strng"}}}`)},
		{Name: "not-object", Title: "Not an object", InputSchema: json.RawMessage(`{"type":"string"}`)},
		{Name: "untitled", InputSchema: obj},
		{Name: "shout", Title: "Shout", InputSchema: obj, OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
	}, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		if _, err := req.Session.Log(ctx, "error", "logging without saying so"); err != nil {
			return nil, err
		}
		return &mcptest.ToolResult{Content: []mcptest.Content{mcptest.TextContent("{}")}, StructuredContent: json.RawMessage(`{"n":"not a number"}`)}, nil
	})
	srv.Fault(mcptest.Fault{Kind: mcptest.FaultUnknownID, Target: "shout"})
	srv.Fault(mcptest.Fault{Kind: mcptest.FaultMalformedLine, Target: "shout"})
	return srv
}

func getReport(t *testing.T, p *page) Report {
	t.Helper()
	resp := p.do(t, http.MethodGet, "/api/report?server=demo", "", nil)
	var r Report
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("report: %s %v", resp.Status, err)
	}
	return r
}

// findings are a report's findings as "check | where | problem" lines.
func findings(r Report) string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.Check + " | " + f.Where + " | " + f.Problem + "\n")
	}
	return b.String()
}

func TestReportFindsEachFault(t *testing.T) {
	p := newPageServer(t, faultyServer(), Options{Hooks: NewHooks()}, &mcp.ClientOptions{ProtocolVersion: "2025-11-25"})
	next := p.events(t)
	call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"shout","arguments":{}}`)
	// The page lists the tools first, as it does before a call, so that
	// the client knows the outputSchema.
	rec, _ := waitCall(t, next, call.ID, nil)
	if rec.State != "done" || rec.Result == nil {
		t.Fatalf("the call ended %s: %s", rec.State, rec.Error)
	}
	got := findings(getReport(t, p))
	for _, want := range []string{
		checkDuplicates + ` | tool "dup" | listed more than once`,
		checkSchemas + ` | tool "bad-schema" | its inputSchema is not valid JSON Schema`,
		checkSchemas + ` | tool "not-object" | its inputSchema is not of type "object"`,
		checkTitles + ` | tool "untitled" | has no title`,
		checkCapabilities + ` | wire #`,
		"sent notifications/message without declaring logging",
		checkProtocol + ` | wire #`,
		`a response to id "mcptest-unknown-id", which no open request had`,
		checkProtocol + ` | client, `,
		"skipped an unreadable message",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
	for _, wrong := range []string{`tool "shout" | has no title`, `"dup" | has no title`} {
		if strings.Contains(got, wrong) {
			t.Errorf("the report says %q:\n%s", wrong, got)
		}
	}
}

// A call whose structuredContent fails the outputSchema keeps its result
// and its verdict, and the report lists it.
func TestReportOutputSchema(t *testing.T) {
	p := newPageServer(t, faultyServer(), Options{Hooks: NewHooks()}, &mcp.ClientOptions{ProtocolVersion: "2025-11-25"})
	getReport(t, p) // lists the tools: the client learns the outputSchema
	next := p.events(t)
	call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"shout","arguments":{}}`)
	rec, _ := waitCall(t, next, call.ID, nil)
	if rec.State != "done" || rec.Result == nil || !strings.Contains(rec.SchemaError, "outputSchema") {
		t.Fatalf("the call ended %s, schema verdict %q, result %s", rec.State, rec.SchemaError, rec.Result)
	}
	if got := findings(getReport(t, p)); !strings.Contains(got, checkOutput+` | tool "shout" (call #1) | `) {
		t.Fatalf("the report lacks the output failure:\n%s", got)
	}
}

// The example server is correct: no error in its report.
func TestReportCleanServer(t *testing.T) {
	for _, era := range eras {
		t.Run(era.protocol, func(t *testing.T) {
			p := newPageClient(t, Options{}, &mcp.ClientOptions{ProtocolVersion: era.protocol})
			r := getReport(t, p)
			if len(r.Checks) != 6 {
				t.Errorf("checks: %v", r.Checks)
			}
			for _, f := range r.Findings {
				if f.Severity == "error" {
					t.Errorf("finding: %+v", f)
				}
			}
		})
	}
}

// The report reads what servers sent: any message, in any place of a
// listing, gives findings or none, never a panic.
func FuzzCheckServer(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a"}]}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"$ref":"http://x/y"}}]}}`))
	f.Add([]byte(`{"jsonrpc":"1.0","id":1,"error":{"code":-32600,"message":"x"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
	f.Add([]byte(`[1,2,3]`))
	f.Fuzz(func(t *testing.T, msg []byte) {
		w := NewWire(0, 0)
		line := func(dir string, m []byte) []byte {
			b, _ := json.Marshal(map[string]any{"time": "2026-01-01T00:00:00Z", "direction": dir, "transport": "demo", "message": json.RawMessage(m)})
			return append(b, '\n')
		}
		_, _ = w.Write(line("send", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`)))
		if json.Valid(msg) {
			_, _ = w.Write(line("receive", msg))
		}
		r := checkServer("demo", mcp.ServerCapabilities{}, w.Entries(), nil)
		if len(r.Checks) != 6 {
			t.Fatalf("checks: %v", r.Checks)
		}
	})
}
