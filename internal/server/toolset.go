package server

import (
	"encoding/json"
	"slices"
)

// RawToolResult is a tools/call result sent as given (a proxy's upstream
// result): raw must be a JSON object. In the modern era resultType and the
// serverInfo are added to it as to any result.
func RawToolResult(raw json.RawMessage) *ToolResult { return &ToolResult{raw: raw} }

// SetTools replaces every tool at once, each served by handler (which
// tells them apart by ToolRequest.Name), and announces the change to open
// sessions with one notifications/tools/list_changed, only when the list
// differs from before. A gateway calls it when an upstream's tools change,
// so a storm of upstream changes costs the host one announcement per set.
func (s *Server) SetTools(tools []Tool, handler ToolHandler) {
	entries := make([]toolEntry, len(tools))
	for i, t := range tools {
		if len(t.InputSchema) == 0 {
			t.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		entries[i] = newToolEntry(t, handler)
	}
	s.mu.Lock()
	same := slices.EqualFunc(s.tools, entries, func(a, b toolEntry) bool { return sameTool(a.tool, b.tool) })
	s.tools = entries
	s.indexToolsLocked()
	s.mu.Unlock()
	if !same {
		s.broadcast("notifications/tools/list_changed", nil, "")
	}
}

// sameTool compares tools as a client sees them: by their encoding.
func sameTool(a, b Tool) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
