package mcp

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
)

const weatherSchema = `{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"}},"required":["temperature"]}`

// hookRecorder collects what a schemaCache reports.
type hookRecorder struct {
	mu   sync.Mutex
	errs []error
}

func (h *hookRecorder) hook(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.errs = append(h.errs, err)
}

func (h *hookRecorder) all() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.errs...)
}

func resultWith(structured string) *CallToolResult {
	r := &CallToolResult{Content: []Content{TextContent(structured)}}
	if structured != "" {
		r.StructuredContent = json.RawMessage(structured)
	}
	return r
}

func TestOutputSchemaValidation(t *testing.T) {
	cases := []struct {
		name    string
		schema  string
		result  *CallToolResult
		wantErr string // "" = valid
	}{
		{"conforming", weatherSchema, resultWith(`{"temperature":22.5,"conditions":"sunny"}`), ""},
		{"wrong type", weatherSchema, resultWith(`{"temperature":"warm"}`), "/temperature"},
		{"required missing", weatherSchema, resultWith(`{"conditions":"sunny"}`), "temperature"},
		{"missing structuredContent", weatherSchema, resultWith(""), "mcp: no structuredContent in the result"},
		{"null structuredContent", weatherSchema, resultWith("null"), "mcp: no structuredContent in the result"},
		{"isError skips validation", weatherSchema, &CallToolResult{IsError: true}, ""},
		// 2020-12 is the default dialect: prefixItems is a 2020-12 keyword.
		{"2020-12 default", `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"}]}}}`,
			resultWith(`{"p":[1]}`), "/p/0"},
		// Under draft-07, prefixItems means nothing, items (array form) applies.
		{"draft-07 declared", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"}]}}}`,
			resultWith(`{"p":[1]}`), ""},
		{"draft-07 mismatch", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"type":"array","items":[{"type":"string"}]}}}`,
			resultWith(`{"p":[1]}`), "/p/0"},
		{"local $ref", `{"$defs":{"n":{"type":"number"}},"type":"object","properties":{"v":{"$ref":"#/$defs/n"}}}`,
			resultWith(`{"v":"x"}`), "/v"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var h hookRecorder
			sc := schemaCache{}
			sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(tc.schema)}})
			err := sc.check("weather", tc.result, h.hook)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("check: %v", err)
				}
			} else {
				var oErr *OutputSchemaError
				if !errors.As(err, &oErr) || oErr.Tool != "weather" || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("check error = %v, want an OutputSchemaError for weather mentioning %q", err, tc.wantErr)
				}
			}
			if errs := h.all(); len(errs) > 0 {
				t.Errorf("hook got %v", errs)
			}
		})
	}
}

func TestOutputSchemaThatDoesNotCompile(t *testing.T) {
	cases := map[string]string{
		"unknown dialect": `{"$schema":"https://example.com/my-dialect","type":"object"}`,
		"external $ref":   `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`,
		"local file $ref": `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`,
		"invalid schema":  `{"type":"objekt"}`,
		"bad pattern":     `{"type":"object","properties":{"a":{"type":"string","pattern":"(?<=x)y"}}}`,
	}
	for name, schema := range cases {
		t.Run(name, func(t *testing.T) {
			var h hookRecorder
			sc := schemaCache{}
			sc.learn([]Tool{{Name: "t", OutputSchema: json.RawMessage(schema)}})
			// The call is not failed, however often it is made, and the
			// problem is reported once.
			for range 3 {
				if err := sc.check("t", resultWith(`{"a":1}`), h.hook); err != nil {
					t.Fatalf("check: %v", err)
				}
			}
			errs := h.all()
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), `tool "t": its outputSchema cannot be compiled`) {
				t.Fatalf("hook got %v, want one compile report", errs)
			}
		})
	}
}

func TestOutputSchemaCacheFollowsListings(t *testing.T) {
	sc := schemaCache{}
	bad := resultWith(`{"temperature":"warm"}`)
	if err := sc.check("weather", bad, func(error) {}); err != nil {
		t.Fatalf("a tool never listed is not validated, got %v", err)
	}
	sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(weatherSchema)}, {Name: "plain"}})
	if err := sc.check("weather", bad, func(error) {}); err == nil {
		t.Fatal("listed schema not applied")
	}
	first := sc.byTool["weather"]
	// The same schema again keeps the compiled form.
	sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(weatherSchema)}})
	if sc.byTool["weather"] != first || first.sch == nil {
		t.Error("an unchanged schema was recompiled")
	}
	// A changed schema replaces it.
	sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(`{"type":"object"}`)}})
	if err := sc.check("weather", bad, func(error) {}); err != nil {
		t.Errorf("changed schema not applied: %v", err)
	}
	// A tool that drops its schema, or drops out of a full listing, is forgotten.
	sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(weatherSchema)}})
	sc.learn([]Tool{{Name: "weather"}})
	if err := sc.check("weather", bad, func(error) {}); err != nil {
		t.Errorf("schema removed by the server still applied: %v", err)
	}
	sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(weatherSchema)}})
	sc.retain([]Tool{{Name: "other"}})
	if err := sc.check("weather", bad, func(error) {}); err != nil {
		t.Errorf("schema of an unlisted tool still applied: %v", err)
	}
}

func TestOutputSchemaConcurrentChecks(t *testing.T) {
	sc := schemaCache{}
	sc.learn([]Tool{{Name: "weather", OutputSchema: json.RawMessage(weatherSchema)}})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			res := resultWith(`{"temperature":1}`)
			if i%2 == 1 {
				res = resultWith(`{"temperature":"x"}`)
			}
			err := sc.check("weather", res, func(error) {})
			if (err != nil) != (i%2 == 1) {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("unexpected outcome: %v", err)
	}
}
