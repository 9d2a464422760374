package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcpwire/mcpwire/mcp"
)

// The scenarios of the 2026-07-28 revision that are not about
// authorization: what each asks the client to call.

// mrtrEchoPrompt is the elicitation of test_mrtr_echo_state, between whose
// rounds the client calls test_mrtr_unrelated.
const mrtrEchoPrompt = "Please confirm to continue"

// mrtrRequestState runs the multi round-trip tools of
// sep-2322-client-request-state: one with requestState (its elicitation
// handler calls an unrelated tool between the rounds), one without, and
// one whose result has no resultType.
func mrtrRequestState(ctx context.Context, client *mcp.Client) error {
	if _, err := listTools(ctx, client); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"} {
		if err := callChecked(ctx, client, name, map[string]any{}); err != nil {
			return err
		}
	}
	return nil
}

// contextToolCalls makes the tool calls the scenario lists in
// MCP_CONFORMANCE_CONTEXT ({"toolCalls": [{name, arguments}]}), after
// listing the tools as an agent would.
func contextToolCalls(ctx context.Context, client *mcp.Client) error {
	var sc struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
	}
	raw := os.Getenv("MCP_CONFORMANCE_CONTEXT")
	if raw == "" {
		return fmt.Errorf("MCP_CONFORMANCE_CONTEXT is not set; the scenario lists its tool calls there")
	}
	if err := json.Unmarshal([]byte(raw), &sc); err != nil {
		return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
	}
	if _, err := listTools(ctx, client); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, call := range sc.ToolCalls {
		if err := callChecked(ctx, client, call.Name, call.Arguments); err != nil {
			return err
		}
	}
	return nil
}

// callEveryTool calls every tool the client lists, with placeholder
// arguments for the required fields: the library leaves out the tools it
// must not call, and keeps the others usable.
func callEveryTool(ctx context.Context, client *mcp.Client) error {
	tools, err := listTools(ctx, client)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if len(tools) == 0 {
		return fmt.Errorf("tools/list: no tool is left to call")
	}
	for _, t := range tools {
		if err := callChecked(ctx, client, t.Name, placeholderArgs(t.InputSchema)); err != nil {
			return err
		}
	}
	return nil
}

// placeholderArgs returns a value of the right type for each required
// property of schema.
func placeholderArgs(schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	args := map[string]any{}
	for _, name := range s.Required {
		switch s.Properties[name].Type {
		case "integer", "number":
			args[name] = 1
		case "boolean":
			args[name] = true
		case "object":
			args[name] = map[string]any{}
		case "array":
			args[name] = []any{}
		case "null":
			args[name] = nil
		default:
			args[name] = "conformance"
		}
	}
	return args
}

// echoSchema sends the input schema of tool, as the client holds it, back
// through the echo tool: the scenario checks nothing was lost.
func echoSchema(ctx context.Context, client *mcp.Client, tool, echo string) error {
	tools, err := listTools(ctx, client)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range tools {
		if t.Name == tool {
			return callChecked(ctx, client, echo, map[string]any{"schema": t.InputSchema})
		}
	}
	return fmt.Errorf("tools/list: no tool %q", tool)
}

// callChecked calls name and fails on a protocol error or an isError result.
func callChecked(ctx context.Context, client *mcp.Client, name string, args any) error {
	res, err := client.CallTool(ctx, name, args, nil)
	if err != nil {
		return fmt.Errorf("tools/call %s: %w", name, err)
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		return fmt.Errorf("tools/call %s returned isError: %s", name, b)
	}
	return nil
}
