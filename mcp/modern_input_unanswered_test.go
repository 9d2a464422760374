package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// Each kind of input a client without the capability cannot give fails the
// call with -32021 as an *InputError naming the request and the
// capability the server asked for.
func TestModernInputMissingCapabilityNamed(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, _ := connectMCPTest(t, srv, modernPin)
	for tool, capability := range map[string]string{"sample": "sampling", "elicit": "elicitation", "roots": "roots"} {
		_, err := c.CallTool(t.Context(), tool, map[string]any{"message": "m", "prompt": "p"}, nil)
		var inErr *InputError
		if !errors.As(err, &inErr) {
			t.Errorf("%s: %v, want an *InputError", tool, err)
			continue
		}
		if code, _ := jsonrpc.ErrorCode(err); code != CodeMissingClientCapability {
			t.Errorf("%s: code %d, want -32021: %v", tool, code, err)
		}
		if inErr.Method != MethodToolsCall || !strings.Contains(inErr.Asked, `"`+capability+`"`) {
			t.Errorf("%s: Method %q, Asked %q; want tools/call and %q", tool, inErr.Method, inErr.Asked, capability)
		}
		if msg := err.Error(); !strings.Contains(msg, "tools/call") || !strings.Contains(msg, `"`+capability+`"`) {
			t.Errorf("%s: the message does not say what was asked: %s", tool, msg)
		}
	}
}

// A server that asks for input the client never declared (against the
// revision) gets no answer made up: the call fails naming the request
// that asked, what it asked for, and the option that would answer it.
func TestModernInputWithoutHandlerNamed(t *testing.T) {
	for _, tc := range []struct {
		asked  string
		params string
		option string
	}{
		{MethodSamplingCreateMessage, `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}`, "ClientOptions.Sampling"},
		{MethodElicitationCreate, `{"message":"who?","requestedSchema":{"type":"object","properties":{}}}`, "ClientOptions.Elicitation or ElicitationURL"},
		{MethodRootsList, `{}`, "ClientOptions.Roots or InitialRoots"},
	} {
		t.Run(tc.asked, func(t *testing.T) {
			s := modernAsker(t, tc.asked, tc.params)
			c := connect(t, s, modernPin)
			_, err := c.GetPrompt(t.Context(), "p", nil)
			var inErr *InputError
			if !errors.As(err, &inErr) || inErr.Method != MethodPromptsGet || inErr.Asked != tc.asked {
				t.Fatalf("GetPrompt: %v, want an *InputError for %s asking %s", err, MethodPromptsGet, tc.asked)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.asked) || !strings.Contains(msg, tc.option) || !strings.Contains(msg, MethodPromptsGet) {
				t.Errorf("the message does not say what was asked and what would answer it: %s", msg)
			}
		})
	}
}

// An elicitation in a mode the client did not declare names the mode.
func TestModernInputUndeclaredElicitationModeNamed(t *testing.T) {
	accept := func(context.Context, *ElicitRequest) (*ElicitResult, error) {
		return &ElicitResult{Action: "accept"}, nil
	}
	for _, tc := range []struct {
		mode, params string
		set          func(o *ClientOptions)
	}{
		{"url", `{"mode":"url","message":"go","url":"https://example.com/x","elicitationId":"e1"}`, func(o *ClientOptions) { o.Elicitation = accept }},
		{"form", `{"message":"who?","requestedSchema":{"type":"object","properties":{}}}`, func(o *ClientOptions) { o.ElicitationURL = accept }},
	} {
		c := connect(t, modernAsker(t, MethodElicitationCreate, tc.params), modernWith(tc.set))
		_, err := c.GetPrompt(t.Context(), "p", nil)
		var inErr *InputError
		if !errors.As(err, &inErr) || inErr.Asked != MethodElicitationCreate || !strings.Contains(err.Error(), `mode "`+tc.mode+`"`) {
			t.Errorf("%s mode undeclared: %v, want an *InputError naming elicitation/create and the mode", tc.mode, err)
		}
	}
}

// A request that is not one of the three the server may send as input is
// refused by name, not passed to a handler.
func TestModernInputUnknownRequestNamed(t *testing.T) {
	s := modernAsker(t, "tools/call", `{"name":"x"}`)
	asked := false
	c := connect(t, s, modernWith(func(o *ClientOptions) {
		o.Sampling = func(context.Context, *CreateMessageRequest) (*CreateMessageResult, error) {
			asked = true
			return nil, errors.New("not for this")
		}
	}))
	_, err := c.GetPrompt(t.Context(), "p", nil)
	var inErr *InputError
	if !errors.As(err, &inErr) || inErr.Asked != `"tools/call"` || !strings.Contains(err.Error(), "not a request the server may send as input") {
		t.Fatalf("GetPrompt: %v", err)
	}
	if asked {
		t.Error("a handler was asked")
	}
}

// modernAsker is a 2026-07-28 server whose prompts/get always asks for
// one input, method with params, whatever the client declared.
func modernAsker(t *testing.T, method, params string) *fakeServer {
	s := newFakeServer(t)
	s.on(MethodServerDiscover, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{"prompts":{}}}`), nil
	})
	s.on(MethodPromptsGet, func(context.Context, *jsonrpc.Request) (any, error) {
		return map[string]any{
			"resultType":    "input_required",
			"inputRequests": map[string]any{"q": map[string]any{"method": method, "params": json.RawMessage(params)}},
			"requestState":  "s1",
		}, nil
	})
	return s
}
