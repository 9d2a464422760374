package gosdks_test

import (
	"context"
	"errors"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every server below offers the same features, written the way each SDK's
// users write them, so the same client test runs against all of them.
const (
	toolEcho    = "echo"    // echoes its text argument
	toolCount   = "count"   // reports progressSteps progress notifications
	toolConfirm = "confirm" // asks for an elicitation through an input-required result (MRTR)
	toolAsk     = "ask"     // asks for an elicitation with a server-to-client request (legacy era only)

	greetingURI   = "test://greeting"
	promptGreet   = "greet"
	progressSteps = 3

	confirmMessage = "Deploy to production?"
)

// confirmSchema is the form both elicitations ask for: one boolean with a
// default, so a client that fills in defaults can answer it too.
var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"ok": map[string]any{"type": "boolean", "default": true},
	},
	"required": []any{"ok"},
}

// answerText is what the elicitation tools return for an answer: the action
// and the ok field, so a test sees that its answer reached the server.
func answerText(action string, content map[string]any) string {
	return fmt.Sprintf("%s ok=%v", action, content["ok"])
}

// --- the official go-sdk ---

type echoArgs struct {
	Text string `json:"text"`
}

// goSDKServer builds a go-sdk server. versions restricts the protocol
// versions it serves (nil: every one the SDK knows, both eras).
func goSDKServer(versions []string) *gosdk.Server {
	s := gosdk.NewServer(&gosdk.Implementation{Name: "go-sdk-server", Version: "1.0.0"},
		&gosdk.ServerOptions{SupportedProtocolVersions: versions})

	gosdk.AddTool(s, &gosdk.Tool{Name: toolEcho, Description: "echoes text"},
		func(ctx context.Context, req *gosdk.CallToolRequest, in echoArgs) (*gosdk.CallToolResult, any, error) {
			return textResult("echo: " + in.Text), nil, nil
		})

	gosdk.AddTool(s, &gosdk.Tool{Name: toolCount, Description: "reports progress"},
		func(ctx context.Context, req *gosdk.CallToolRequest, _ struct{}) (*gosdk.CallToolResult, any, error) {
			token := req.Params.GetProgressToken()
			if token == nil {
				return nil, nil, errors.New("count: the call carries no progress token")
			}
			for i := 1; i <= progressSteps; i++ {
				err := req.Session.NotifyProgress(ctx, &gosdk.ProgressNotificationParams{
					ProgressToken: token, Progress: float64(i), Total: progressSteps,
					Message: fmt.Sprintf("step %d", i),
				})
				if err != nil {
					return nil, nil, err
				}
			}
			return textResult(fmt.Sprintf("counted %d", progressSteps)), nil, nil
		})

	// MRTR as the go-sdk documents it: return InputRequests, get the answers
	// in InputResponses on the retry. For a client of the older eras the SDK
	// itself turns the request into elicitation/create.
	gosdk.AddTool(s, &gosdk.Tool{Name: toolConfirm, Description: "asks for confirmation"},
		func(ctx context.Context, req *gosdk.CallToolRequest, _ struct{}) (*gosdk.CallToolResult, any, error) {
			resp, ok := req.Params.InputResponses["confirm"]
			if !ok {
				return &gosdk.CallToolResult{
					InputRequests: gosdk.InputRequestMap{"confirm": &gosdk.ElicitParams{
						Mode: "form", Message: confirmMessage, RequestedSchema: confirmSchema,
					}},
					RequestState: "confirm-1",
				}, nil, nil
			}
			er, ok := resp.(*gosdk.ElicitResult)
			if !ok {
				return nil, nil, fmt.Errorf("confirm: answer is a %T, not an elicitation result", resp)
			}
			if req.Params.RequestState != "confirm-1" {
				return nil, nil, fmt.Errorf("confirm: requestState %q was not echoed", req.Params.RequestState)
			}
			return textResult(answerText(er.Action, er.Content)), nil, nil
		})

	// The older eras' way: a server-to-client request in the middle of the call.
	gosdk.AddTool(s, &gosdk.Tool{Name: toolAsk, Description: "asks with elicitation/create"},
		func(ctx context.Context, req *gosdk.CallToolRequest, _ struct{}) (*gosdk.CallToolResult, any, error) {
			er, err := req.Session.Elicit(ctx, &gosdk.ElicitParams{
				Mode: "form", Message: confirmMessage, RequestedSchema: confirmSchema,
			})
			if err != nil {
				return nil, nil, err
			}
			return textResult(answerText(er.Action, er.Content)), nil, nil
		})

	s.AddResource(&gosdk.Resource{URI: greetingURI, Name: "greeting", MIMEType: "text/plain"},
		func(ctx context.Context, req *gosdk.ReadResourceRequest) (*gosdk.ReadResourceResult, error) {
			return &gosdk.ReadResourceResult{Contents: []*gosdk.ResourceContents{
				{URI: greetingURI, MIMEType: "text/plain", Text: "hello from go-sdk"},
			}}, nil
		})

	s.AddPrompt(&gosdk.Prompt{Name: promptGreet, Arguments: []*gosdk.PromptArgument{{Name: "name", Required: true}}},
		func(ctx context.Context, req *gosdk.GetPromptRequest) (*gosdk.GetPromptResult, error) {
			return &gosdk.GetPromptResult{Messages: []*gosdk.PromptMessage{
				{Role: "user", Content: &gosdk.TextContent{Text: "Hello, " + req.Params.Arguments["name"] + "!"}},
			}}, nil
		})
	return s
}

func textResult(text string) *gosdk.CallToolResult {
	return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: text}}}
}

// --- mcp-go ---

// mcpGoServer builds an mcp-go server with the same features (both eras).
func mcpGoServer() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("mcp-go-server", "1.0.0",
		mcpgoserver.WithToolCapabilities(false),
		mcpgoserver.WithResourceCapabilities(false, false),
		mcpgoserver.WithPromptCapabilities(false),
		mcpgoserver.WithElicitation(),
	)

	s.AddTool(mcpgo.NewTool(toolEcho, mcpgo.WithDescription("echoes text"), mcpgo.WithString("text")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("echo: " + req.GetString("text", "")), nil
		})

	s.AddTool(mcpgo.NewTool(toolCount, mcpgo.WithDescription("reports progress")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
				return nil, errors.New("count: the call carries no progress token")
			}
			srv := mcpgoserver.ServerFromContext(ctx)
			for i := 1; i <= progressSteps; i++ {
				err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
					"progressToken": req.Params.Meta.ProgressToken,
					"progress":      i, "total": progressSteps, "message": fmt.Sprintf("step %d", i),
				})
				if err != nil {
					return nil, err
				}
			}
			return mcpgo.NewToolResultText(fmt.Sprintf("counted %d", progressSteps)), nil
		})

	// MRTR as mcp-go documents it; for a client of the older eras mcp-go
	// sends elicitation/create itself and calls the handler again.
	s.AddTool(mcpgo.NewTool(toolConfirm, mcpgo.WithDescription("asks for confirmation")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			er := mcpgoserver.ElicitationResponse(req.Params.InputResponses, "confirm")
			if er == nil {
				return mcpgoserver.NewInputRequestBuilder("confirm-1").Elicit("confirm", mcpgo.ElicitationParams{
					Mode: "form", Message: confirmMessage, RequestedSchema: confirmSchema,
				}).ToolResult(), nil
			}
			content, _ := er.Content.(map[string]any)
			return mcpgo.NewToolResultText(answerText(string(er.Action), content)), nil
		})

	s.AddTool(mcpgo.NewTool(toolAsk, mcpgo.WithDescription("asks with elicitation/create")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			er, err := mcpgoserver.ServerFromContext(ctx).RequestElicitation(ctx, mcpgo.ElicitationRequest{
				Params: mcpgo.ElicitationParams{Mode: "form", Message: confirmMessage, RequestedSchema: confirmSchema},
			})
			if err != nil {
				return nil, err
			}
			content, _ := er.Content.(map[string]any)
			return mcpgo.NewToolResultText(answerText(string(er.Action), content)), nil
		})

	s.AddResource(mcpgo.NewResource(greetingURI, "greeting", mcpgo.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{
				URI: greetingURI, MIMEType: "text/plain", Text: "hello from mcp-go",
			}}, nil
		})

	s.AddPrompt(mcpgo.NewPrompt(promptGreet, mcpgo.WithArgument("name", mcpgo.RequiredArgument())),
		func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("Hello, "+req.Params.Arguments["name"]+"!")),
			}), nil
		})
	return s
}
