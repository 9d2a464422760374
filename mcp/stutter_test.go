package mcp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcptest"
)

// sayOnce fails when a layer's prefix or the method appears twice in
// err's text ("mcp: x: mcp: y", "mcp: tools/call: jsonrpc: tools/call").
func sayOnce(t *testing.T, what string, err error, method string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	text := err.Error()
	for _, prefix := range []string{"mcp: ", "jsonrpc: ", "transport: "} {
		if strings.Count(text, prefix) > 1 {
			t.Errorf("%s: %q says %q twice", what, text, prefix)
		}
	}
	if method != "" && strings.Count(text, method) > 1 {
		t.Errorf("%s: %q names %s twice", what, text, method)
	}
}

// Typical errors of both eras, each worded with every prefix once.
func TestErrorsSayEachPrefixOnce(t *testing.T) {
	for _, era := range []struct {
		name string
		eras mcptest.Eras
		opts *ClientOptions
	}{
		{"legacy", mcptest.LegacyOnly, &ClientOptions{Timeout: time.Second}},
		{"modern", mcptest.ModernOnly, &ClientOptions{Timeout: time.Second, ProtocolVersion: ModernProtocolVersion}},
	} {
		t.Run(era.name, func(t *testing.T) {
			srv := mcptest.NewDefault(&mcptest.Options{Eras: era.eras})
			c, _ := connectMCPTest(t, srv, era.opts)
			ctx := t.Context()

			srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: MethodPromptsList})
			_, err := c.ListPrompts(ctx)
			if !errors.Is(err, ErrTimeout) {
				t.Errorf("a prompts/list never answered: %v, want ErrTimeout", err)
			}
			sayOnce(t, "timeout", err, MethodPromptsList)

			_, err = c.GetPrompt(ctx, "no-such-prompt", nil)
			sayOnce(t, "the server's error", err, "") // its message is its own

			_, err = c.ReadResource(ctx, "mcptest://no/such")
			sayOnce(t, "a missing resource", err, MethodResourcesRead)

			c.Close()
			_, err = c.ListTools(ctx)
			if !errors.Is(err, ErrClosed) {
				t.Errorf("ListTools after Close: %v, want ErrClosed", err)
			}
			sayOnce(t, "closed", err, MethodToolsList)
		})
	}
}

// A report that wraps one of the client's own errors (setting the
// session up again after a renewal) says "mcp: " once.
func TestReportsWrappingOwnErrorsSayMCPOnce(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly, Capabilities: []byte(`{"tools":{}}`)})
	c, _ := connectMCPTest(t, srv, nil)
	err := c.SubscribeResource(t.Context(), "mcptest://nothing") // no resources: unsupported
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("SubscribeResource: %v", err)
	}
	sayOnce(t, "restore report", wrapf(err, "subscribing again on a new session"), MethodResourcesSubscribe)
}
