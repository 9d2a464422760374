package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A method the server did not advertise fails with ErrUnsupported in
// every era, and nothing goes to the server for it.
func TestUnadvertisedMethodsFailBeforeSending(t *testing.T) {
	for _, era := range []struct {
		name string
		eras mcptest.Eras
		opts *ClientOptions
	}{
		{"legacy", mcptest.LegacyOnly, nil},
		{"modern", mcptest.ModernOnly, modernPin},
	} {
		t.Run(era.name, func(t *testing.T) {
			// Resources without subscribe; no prompts, logging or
			// completions.
			srv := mcptest.NewDefault(&mcptest.Options{Eras: era.eras,
				Capabilities: json.RawMessage(`{"tools":{},"resources":{}}`)})
			c, session := connectMCPTest(t, srv, era.opts)
			ctx := t.Context()
			if era.eras == mcptest.LegacyOnly {
				// notifications/initialized may still be on its way
				// when NewClient returns; it belongs before the count.
				<-session.Initialized()
			}
			calls := map[string]func() error{
				MethodResourcesSubscribe:   func() error { return c.SubscribeResource(ctx, "test://a") },
				MethodResourcesUnsubscribe: func() error { return c.UnsubscribeResource(ctx, "test://a") },
				MethodPromptsList:          func() error { _, err := c.ListPrompts(ctx); return err },
				MethodPromptsGet:           func() error { _, err := c.GetPrompt(ctx, "p", nil); return err },
				MethodLoggingSetLevel:      func() error { return c.SetLogLevel(ctx, LevelInfo) },
				MethodCompletionComplete: func() error {
					_, err := c.Complete(ctx, CompletionRef{Type: RefPrompt, Name: "p"}, CompletionArgument{Name: "a"}, nil)
					return err
				},
				"raw " + MethodPromptsList: func() error { _, err := c.Request(ctx, MethodPromptsList, nil); return err },
			}
			before := len(session.Received())
			for name, call := range calls {
				err := call()
				if !errors.Is(err, ErrUnsupported) || !errors.Is(err, errors.ErrUnsupported) {
					t.Errorf("%s: %v, want ErrUnsupported", name, err)
				}
				if _, isRPC := jsonrpc.ErrorCode(err); isRPC {
					t.Errorf("%s: %v came from the server", name, err)
				}
			}
			for _, m := range session.Received()[before:] {
				t.Errorf("the server received %s", describeMessage(m))
			}
			// What it did advertise still works.
			if _, err := c.ListResources(ctx); err != nil {
				t.Errorf("ListResources: %v", err)
			}
		})
	}
}

func describeMessage(m jsonrpc.Message) string {
	b, _ := json.Marshal(m)
	return string(b)
}
