package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// run connects to url and performs the scenario. Scenarios it does not know
// get the generic behaviour: handshake, list tools, close.
func run(ctx context.Context, scenario, url string) error {
	logger := log.New(os.Stderr, "mcpwire-conformance: ", 0)
	var client *mcp.Client // set before any call can ask for input
	opts := &mcp.ClientOptions{
		ClientInfo: mcp.Implementation{Name: "mcpwire-conformance", Version: mcp.LibraryVersion},
		// Accept every elicitation, with the schema's defaults filled in:
		// the suite checks that a client pre-fills them.
		Elicitation: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if scenario == "sep-2322-client-request-state" && req.Message == mrtrEchoPrompt {
				// Between the rounds of one request, another call must
				// carry nothing of it.
				if err := callChecked(ctx, client, "test_mrtr_unrelated", map[string]any{}); err != nil {
					return nil, err
				}
			}
			content, err := mcp.ElicitationDefaults(req.RequestedSchema)
			if errors.Is(err, mcp.ErrNoValidAnswer) {
				logger.Printf("declining %q: %v", req.Message, err)
				return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
			}
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: "accept", Content: content}, nil
		},
		ErrorHook: func(err error) { logger.Printf("note: %v", err) },
		// Pins a revision when set ("2026-07-28", say); empty negotiates.
		ProtocolVersion: os.Getenv("MCPWIRE_CONFORMANCE_PROTOCOL"),
	}
	tr := &transport.StreamableHTTP{URL: url}
	var err error
	if strings.HasPrefix(scenario, "auth/") {
		authz, err := authorizerFor(scenario, url, logger)
		if err != nil {
			return err
		}
		tr.Auth = authz
	}
	client, err = mcp.Connect(ctx, tr, opts)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer client.Close()

	switch scenario {
	case "initialize":
		_, err = listTools(ctx, client)
		return err
	case "tools_call":
		return callTool(ctx, client, "add_numbers", map[string]any{"a": 5, "b": 3})
	case "elicitation-sep1034-client-defaults":
		return callTool(ctx, client, "test_client_elicitation_defaults", map[string]any{})
	case "sse-retry":
		return callTool(ctx, client, "test_reconnection", map[string]any{})
	case "sep-2322-client-request-state":
		return mrtrRequestState(ctx, client)
	case "http-custom-headers":
		return contextToolCalls(ctx, client)
	case "http-invalid-tool-headers":
		return callEveryTool(ctx, client)
	case "json-schema-2020-12-preservation":
		return echoSchema(ctx, client, "json_schema_2020_12_tool", "json_schema_echo")
	default:
		// The authorization scenarios guard every request; some (step-up)
		// ask for more scopes to call a tool than to list them.
		tools, err := listTools(ctx, client)
		if err != nil {
			return fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range tools {
			if t.Name == "test-tool" {
				res, err := client.CallTool(ctx, t.Name, map[string]any{}, nil)
				if err != nil {
					return fmt.Errorf("tools/call %s: %w", t.Name, err)
				}
				if res.IsError {
					return fmt.Errorf("tools/call %s returned isError", t.Name)
				}
			}
		}
		return nil
	}
}

// callTool lists the tools (as a real agent would before calling one), then
// calls name and fails on a protocol error or an isError result.
func callTool(ctx context.Context, client *mcp.Client, name string, args map[string]any) error {
	if _, err := listTools(ctx, client); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	return callChecked(ctx, client, name, args)
}

// listTools lists the tools as an agent would; a server that offers no
// tools (the client refuses the request with mcp.ErrUnsupported) has none.
func listTools(ctx context.Context, client *mcp.Client) ([]mcp.Tool, error) {
	tools, err := client.ListTools(ctx)
	if errors.Is(err, mcp.ErrUnsupported) {
		return nil, nil
	}
	return tools, err
}
