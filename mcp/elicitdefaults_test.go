package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
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
