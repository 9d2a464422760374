package canned

import (
	"encoding/json"
	"testing"
)

// The list names the tools the workloads call, so that a gateway in front
// of the server routes them, and still has ToolCount tools.
func TestToolsListNamesTheCalledTools(t *testing.T) {
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(ToolsListResult(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != ToolCount {
		t.Fatalf("%d tools, want %d", len(res.Tools), ToolCount)
	}
	seen := map[string]int{}
	for _, tool := range res.Tools {
		seen[tool.Name]++
		if !json.Valid(tool.InputSchema) || len(tool.InputSchema) == 0 {
			t.Errorf("tool %s: no valid input schema", tool.Name)
		}
	}
	for _, name := range []string{EchoTool, BigTool} {
		if seen[name] != 1 {
			t.Errorf("tool %s listed %d times, want once", name, seen[name])
		}
	}
}
