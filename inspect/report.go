package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/mcpwire/mcpwire/internal/peerschema"
	"github.com/mcpwire/mcpwire/mcp"
)

// maxFindings bounds the findings of one check: a server that gets
// something wrong 100,000 times says so in one line, not 100,000.
const maxFindings = 50

// Report answers "is this server correct?" for one server: what it
// listed (read from the wire, as the server sent it, before the client
// dropped or fixed anything), what it sent, and how the page's calls
// ended.
type Report struct {
	Server string `json:"server"`
	// Checks are the checks made, in order, so that no finding under one
	// means it passed.
	Checks   []string  `json:"checks"`
	Findings []Finding `json:"findings"`
}

// Finding is one problem: which check found it, where, and what.
type Finding struct {
	Check string `json:"check"`
	// Severity is "error" (against the specification) or "warning" (a
	// person will see it, such as a missing title).
	Severity string `json:"severity"`
	Where    string `json:"where"`
	Problem  string `json:"problem"`
}

// The checks, in the order the page shows them.
const (
	checkSchemas      = "schemas are valid JSON Schema"
	checkDuplicates   = "names are unique"
	checkOutput       = "results match their outputSchema"
	checkTitles       = "everything has a title"
	checkCapabilities = "only declared capabilities are used"
	checkProtocol     = "messages are valid JSON-RPC"
)

// report lists what server offers afresh (so that the wire holds the
// listings) and checks it.
func (s *Server) report(ctx context.Context, server string) (*Report, error) {
	c, err := s.opts.Servers.Client(ctx, server)
	if err != nil {
		return nil, err
	}
	caps := c.ServerCapabilities()
	// Errors show as findings below if they are the server's; a list the
	// server does not offer is simply not there.
	if caps.Tools != nil {
		_, _ = c.ListTools(ctx)
	}
	if caps.Prompts != nil {
		_, _ = c.ListPrompts(ctx)
	}
	if caps.Resources != nil {
		_, _ = c.ListResources(ctx)
		_, _ = c.ListResourceTemplates(ctx)
	}
	r := checkServer(server, caps, s.opts.Wire.Entries(), s.calls.schemaFailures(server))
	for _, p := range s.opts.Hooks.problemsOf(server) {
		r.Findings = append(r.Findings, Finding{Check: checkProtocol, Severity: "error", Where: "client, " + p.Time.Format("15:04:05"),
			Problem: s.opts.Redact(p.Err)})
	}
	return r, nil
}

// checkServer is the report of server from its capabilities, the wire
// (all servers' entries, oldest first) and the page's calls that failed
// their outputSchema.
func checkServer(server string, caps mcp.ServerCapabilities, wire []*WireEntry, badOutput []*callRecord) *Report {
	r := &Report{Server: server, Checks: []string{checkSchemas, checkDuplicates, checkOutput, checkTitles, checkCapabilities, checkProtocol}}
	counts := map[string]int{}
	add := func(check, severity, where, format string, args ...any) {
		counts[check]++
		switch n := counts[check]; {
		case n < maxFindings:
			r.Findings = append(r.Findings, Finding{Check: check, Severity: severity, Where: where, Problem: fmt.Sprintf(format, args...)})
		case n == maxFindings:
			r.Findings = append(r.Findings, Finding{Check: check, Severity: severity, Where: "", Problem: "more of the same; the rest are not listed"})
		}
	}
	var mine []*WireEntry
	for _, e := range wire {
		if e.Server == server {
			mine = append(mine, e)
		}
	}
	for _, l := range listings {
		items := listed(mine, l.method, l.field)
		seen := map[string]bool{}
		for _, it := range items {
			key := it.Name
			if l.field == "resources" {
				key = it.URI
			} else if l.field == "resourceTemplates" {
				key = it.URITemplate
			}
			where := fmt.Sprintf("%s %q", l.what, key)
			if seen[key] {
				add(checkDuplicates, "error", where, "listed more than once by %s", l.method)
			}
			seen[key] = true
			if it.Title == "" && (it.Annotations == nil || it.Annotations.Title == "") {
				// A client shows the title, else the name: a resource's
				// name too (it is required), not its URI.
				add(checkTitles, "warning", where, "has no title, so people see its name")
			}
			for _, sch := range []struct {
				name string
				raw  json.RawMessage
			}{{"inputSchema", it.InputSchema}, {"outputSchema", it.OutputSchema}} {
				if problem := schemaProblem(sch.name, sch.raw, l.field == "tools"); problem != "" {
					add(checkSchemas, "error", where, "%s", problem)
				}
			}
		}
	}
	for _, c := range badOutput {
		add(checkOutput, "error", fmt.Sprintf("tool %q (call #%d)", c.Tool, c.ID), "%s", c.SchemaError)
	}
	for _, e := range mine {
		if e.Direction != "receive" {
			continue
		}
		where := fmt.Sprintf("wire #%d", e.Seq)
		if e.Kind == "notification" {
			if need := undeclared(e.Method, caps); need != "" {
				add(checkCapabilities, "error", where, "sent %s without declaring %s", e.Method, need)
			}
		}
		if problem := protocolProblem(e); problem != "" {
			add(checkProtocol, "error", where, "%s", problem)
		}
	}
	r.Findings = nonNil(r.Findings)
	return r
}

// listings are the lists a report reads from the wire.
var listings = []struct{ method, field, what string }{
	{"tools/list", "tools", "tool"},
	{"prompts/list", "prompts", "prompt"},
	{"resources/list", "resources", "resource"},
	{"resources/templates/list", "resourceTemplates", "resource template"},
}

// listedItem is what a report reads of a listed tool, prompt, resource or
// template.
type listedItem struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	URI          string          `json:"uri"`
	URITemplate  string          `json:"uriTemplate"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  *struct {
		Title string `json:"title"`
	} `json:"annotations"`
}

// listed returns the items of the last complete listing of method on the
// wire: the pages since the last request without a cursor.
func listed(entries []*WireEntry, method, field string) []listedItem {
	bySeq := map[int64]*WireEntry{}
	var items []listedItem
	for _, e := range entries {
		if e.Kind == "request" && e.Method == method {
			bySeq[e.Seq] = e
			continue
		}
		if e.Kind != "result" || e.Method != method {
			continue
		}
		if req := bySeq[e.ReplyTo]; req != nil {
			var p struct {
				Params struct {
					Cursor *string `json:"cursor"`
				} `json:"params"`
			}
			if json.Unmarshal(req.Message, &p) == nil && p.Params.Cursor == nil {
				items = nil // a new listing starts
			}
		}
		var res struct {
			Result map[string]json.RawMessage `json:"result"`
		}
		if json.Unmarshal(e.Message, &res) != nil {
			continue
		}
		var page []listedItem
		if json.Unmarshal(res.Result[field], &page) == nil {
			items = append(items, page...)
		}
	}
	return items
}

// schemaProblem says what is wrong with a tool's schema, "" if nothing.
// A tool must have an inputSchema, and both schemas must be objects.
func schemaProblem(name string, raw json.RawMessage, tool bool) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		if tool && name == "inputSchema" {
			return "has no inputSchema"
		}
		return ""
	}
	if _, err := peerschema.Compile(raw, "https://mcpwire.invalid/"+name+".json"); err != nil {
		return fmt.Sprintf("its %s is not valid JSON Schema: %s", name, oneLine(err.Error()))
	}
	var root struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(raw, &root) != nil || string(root.Type) != `"object"` {
		return fmt.Sprintf("its %s is not of type \"object\" (type %s)", name, cmpOr(string(root.Type), "missing"))
	}
	return ""
}

// undeclared names the capability a server notification needs that caps
// does not declare, "" if it is declared (or needs none).
func undeclared(method string, caps mcp.ServerCapabilities) string {
	switch method {
	case "notifications/tools/list_changed":
		if caps.Tools == nil || !caps.Tools.ListChanged {
			return "tools.listChanged"
		}
	case "notifications/prompts/list_changed":
		if caps.Prompts == nil || !caps.Prompts.ListChanged {
			return "prompts.listChanged"
		}
	case "notifications/resources/list_changed":
		if caps.Resources == nil || !caps.Resources.ListChanged {
			return "resources.listChanged"
		}
	case "notifications/resources/updated":
		if caps.Resources == nil || !caps.Resources.Subscribe {
			return "resources.subscribe"
		}
	case "notifications/message":
		if caps.Logging == nil {
			return "logging"
		}
	}
	return ""
}

// protocolProblem says what is wrong with a message the server sent as
// JSON-RPC, "" if nothing.
func protocolProblem(e *WireEntry) string {
	if e.Kind == "invalid" {
		return "a message that is not a JSON-RPC object"
	}
	var m struct {
		JSONRPC string `json:"jsonrpc"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(e.Message, &m); err != nil {
		return "a message that is not a JSON-RPC object"
	}
	switch {
	case m.JSONRPC != "2.0":
		return fmt.Sprintf("jsonrpc is %q, not \"2.0\"", m.JSONRPC)
	case (e.Kind == "result" || e.Kind == "error") && e.ReplyTo == 0:
		return fmt.Sprintf("a response to id %s, which no open request had (unknown or answered already)", e.ID)
	case e.Kind == "result" && m.Result == nil:
		return "a response with neither result nor error"
	case e.Kind == "error" && m.Error != nil && slices.Contains([]int{-32700, -32600, -32603}, m.Error.Code):
		return fmt.Sprintf("answered %s with protocol error %d: %s", e.Method, m.Error.Code, m.Error.Message)
	}
	return ""
}

func cmpOr(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

// oneLine joins a multi-line message.
func oneLine(s string) string { return string(bytes.Join(bytes.Fields([]byte(s)), []byte(" "))) }

func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	name := r.URL.Query().Get("server")
	if name == "" {
		s.fail(w, errNoServerNamed)
		return
	}
	rep, err := s.report(ctx, name)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writeReply(w, rep) // findings quote the servers' names and messages
}
