package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A handler that is registered but refuses with method-not-found (a
// gateway's relay whose host did not declare the capability) keeps its
// own words: the call fails with an *InputError saying what the handler
// said, not "no handler is registered", and without a JSON-RPC error a
// caller would take for the server's answer to the call.
func TestModernInputHandlerRefusalKeepsItsMessage(t *testing.T) {
	const refusal = "elicitation/create: the host did not declare the elicitation capability"
	s := modernAsker(t, MethodElicitationCreate, `{"message":"who?","requestedSchema":{"type":"object","properties":{}}}`)
	c := connect(t, s, &ClientOptions{ProtocolVersion: ModernProtocolVersion,
		Elicitation: func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, refusal)
		}})
	_, err := c.GetPrompt(t.Context(), "p", nil)
	var inErr *InputError
	if !errors.As(err, &inErr) || inErr.Asked != MethodElicitationCreate {
		t.Fatalf("GetPrompt: %v, want an *InputError asking %s", err, MethodElicitationCreate)
	}
	if msg := err.Error(); !strings.Contains(msg, refusal) || strings.Contains(msg, "no handler") {
		t.Errorf("the message does not say what the handler said: %s", msg)
	}
	if code, ok := jsonrpc.ErrorCode(err); ok && code == jsonrpc.CodeMethodNotFound {
		t.Errorf("the handler's -32601 reads as the server's answer: %v", err)
	}
}
