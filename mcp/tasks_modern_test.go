package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The client does not declare the tasks extension of 2026-07-28, so a task
// handle in answer to a call is an error that says so, not an empty result.
func TestModernUnaskedTask(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodServerDiscover, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`), nil
	})
	var caps string
	s.on(MethodToolsCall, func(_ context.Context, req *jsonrpc.Request) (any, error) {
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(req.Params, &p)
		caps = string(p.Meta["io.modelcontextprotocol/clientCapabilities"])
		return json.RawMessage(`{"resultType":"task","task":{"taskId":"t1","status":"working","ttlMs":60000,"pollIntervalMs":100}}`), nil
	})
	s.on(MethodToolsList, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"resultType":"complete","tools":[{"name":"task","inputSchema":{"type":"object"}}]}`), nil
	})
	c := connect(t, s, modernPin)
	if _, ok := c.ServerCapabilities().Extensions[ExtensionTasks]; !ok {
		t.Errorf("the server's extensions are not visible: %+v", c.ServerCapabilities())
	}
	_, err := c.CallTool(t.Context(), "slow", nil, nil)
	if err == nil || !strings.Contains(err.Error(), ExtensionTasks) || !strings.Contains(err.Error(), "tools/call") {
		t.Fatalf("err = %v, want one naming the undeclared tasks extension", err)
	}
	if strings.Contains(caps, ExtensionTasks) {
		t.Errorf("the client declared the tasks extension: %s", caps)
	}
	// A result that merely mentions "task" is not one.
	tools, err := c.ListTools(t.Context())
	if err != nil || len(tools) != 1 {
		t.Errorf("ListTools = %v, %v", tools, err)
	}
}

// A server that can serve a call only as a task answers a client without
// the extension -32021; the error names the extension.
func TestModernTaskRequiredNamesExtension(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodServerDiscover, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`), nil
	})
	s.on(MethodToolsCall, func(context.Context, *jsonrpc.Request) (any, error) {
		e := jsonrpc.NewError(CodeMissingClientCapability, "this tool runs only as a task")
		e.Data = json.RawMessage(`{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`)
		return nil, e
	})
	c := connect(t, s, modernPin)
	_, err := c.CallTool(t.Context(), "slow", nil, nil)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Asked, `extension "io.modelcontextprotocol/tasks"`) {
		t.Fatalf("err = %v, want an InputError naming the tasks extension", err)
	}
}
