package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

func TestElicitationDefaults(t *testing.T) {
	// The schema the conformance suite's SEP-1034 scenario sends.
	schema := json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","default":"John Doe"},
		"age":{"type":"integer","default":30},
		"score":{"type":"number","default":95.5},
		"status":{"type":"string","enum":["active","inactive"],"default":"active"},
		"verified":{"type":"boolean","default":true},
		"nickname":{"type":"string"}},"required":[]}`)
	got, err := ElicitationDefaults(schema)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "John Doe", "age": 30.0, "score": 95.5, "status": "active", "verified": true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults = %v, want %v", got, want)
	}
}

func TestElicitationDefaultsErrors(t *testing.T) {
	for _, bad := range []string{`[1]`, `{"properties":[]}`, `{"properties":{"x":3}}`} {
		if _, err := ElicitationDefaults(json.RawMessage(bad)); err == nil || !strings.Contains(err.Error(), "requestedSchema") {
			t.Errorf("ElicitationDefaults(%s) error = %v, want one naming requestedSchema", bad, err)
		}
	}
	got, err := ElicitationDefaults(nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty schema: %v, %v", got, err)
	}
}

// Defaults that the schema refuses are no answer: ElicitationDefaults
// says why, wrapping ErrNoValidAnswer; FormDefaults still gives the
// pre-fill values.
func TestElicitationDefaultsValidated(t *testing.T) {
	cases := []struct {
		name, schema, why string
	}{
		{"required without default", `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","default":3}},"required":["name"]}`, "name"},
		{"default outside enum", `{"type":"object","properties":{"color":{"type":"string","enum":["red","blue"],"default":"green"}}}`, "color"},
		{"default below minimum", `{"type":"object","properties":{"n":{"type":"integer","minimum":5,"default":1}}}`, "n"},
		{"default of the wrong type", `{"type":"object","properties":{"ok":{"type":"boolean","default":"yes"}}}`, "ok"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ElicitationDefaults(json.RawMessage(tc.schema))
			if !errors.Is(err, ErrNoValidAnswer) || got != nil {
				t.Fatalf("ElicitationDefaults = %v, %v; want ErrNoValidAnswer", got, err)
			}
			if !strings.Contains(err.Error(), tc.why) {
				t.Errorf("error %q does not name %q", err, tc.why)
			}
			if _, err := FormDefaults(json.RawMessage(tc.schema)); err != nil {
				t.Errorf("FormDefaults: %v", err)
			}
		})
	}
	if _, err := ElicitationDefaults(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json","default":1}}}`)); err == nil || errors.Is(err, ErrNoValidAnswer) {
		t.Errorf("a schema with an external $ref: %v, want a compile error", err)
	}
}

// A headless client that answers forms with ElicitationDefaults declines
// a form whose defaults the schema refuses, and the server hears the
// decline, not the bad defaults.
func TestElicitationDefaultsDeclineAgainstAServer(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	srv.AddTool(mcptest.Tool{Name: "ask"}, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		answer, err := req.Session.Elicit(ctx, map[string]any{
			"message": "pick a color",
			"requestedSchema": map[string]any{"type": "object",
				"properties": map[string]any{"color": map[string]any{"type": "string", "enum": []string{"red", "blue"}, "default": "green"}}},
		})
		if err != nil {
			return nil, err
		}
		return mcptest.TextResult(string(answer)), nil
	})
	reasons := make(chan error, 1)
	c, _ := connectMCPTest(t, srv, &ClientOptions{
		Elicitation: func(_ context.Context, req *ElicitRequest) (*ElicitResult, error) {
			d, err := ElicitationDefaults(req.RequestedSchema)
			if errors.Is(err, ErrNoValidAnswer) {
				reasons <- err
				return &ElicitResult{Action: ElicitDecline}, nil
			}
			return &ElicitResult{Action: ElicitAccept, Content: d}, err
		},
	})
	res, err := c.CallTool(t.Context(), "ask", nil, nil)
	if err != nil || res.IsError {
		t.Fatalf("ask = %+v, %v", res, err)
	}
	assertSameJSON(t, []byte(res.Content[0].Text), []byte(`{"action":"decline"}`))
	if why := <-reasons; !strings.Contains(why.Error(), "color") {
		t.Errorf("the reason %q does not name the property", why)
	}
}
