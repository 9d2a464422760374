package mcp

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
)

// Tool is one entry of tools/list.
type Tool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the arguments, as sent.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// OutputSchema, when set, is the JSON Schema that structuredContent
	// of every successful call must satisfy (see CallTool).
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Annotations are hints; trust them only as far as you trust the server.
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
	Execution   *ToolExecution   `json:"execution,omitempty"`
	Icons       []Icon           `json:"icons,omitempty"`
	Meta        map[string]any   `json:"_meta,omitempty"`
}

// DisplayName is what a user should see: Title, else Annotations.Title,
// else Name.
func (t *Tool) DisplayName() string {
	if t.Title != "" {
		return t.Title
	}
	if t.Annotations != nil && t.Annotations.Title != "" {
		return t.Annotations.Title
	}
	return t.Name
}

// ToolAnnotations describe a tool's behaviour. Nil hints are unsaid; the
// spec's defaults then apply (readOnly false, destructive true, idempotent
// false, openWorld true).
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Task support levels of ToolExecution (2025-11-25).
const (
	TaskSupportForbidden = "forbidden"
	TaskSupportOptional  = "optional"
	TaskSupportRequired  = "required"
)

// ToolExecution says how a tool may be run (2025-11-25).
type ToolExecution struct {
	// TaskSupport is "forbidden" (also when empty), "optional" or "required".
	TaskSupport string `json:"taskSupport,omitempty"`
}

// ListToolsResult is one page of tools/list.
type ListToolsResult struct {
	Tools      []Tool         `json:"tools"`
	NextCursor string         `json:"nextCursor,omitempty"`
	Meta       map[string]any `json:"_meta,omitempty"`
	// CacheHint is the 2026-07-28 ttlMs and cacheScope (zero before).
	CacheHint
}

// CallToolResult is the answer to tools/call. IsError means the tool ran
// and failed (its content says why, for the model to read); a malformed
// call or unknown tool comes back as a *jsonrpc.Error instead.
type CallToolResult struct {
	Content []Content `json:"content"`
	// StructuredContent is the tool's JSON output, when it has an
	// outputSchema (or chooses to send one).
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              map[string]any  `json:"_meta,omitempty"`
}

type callToolParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Meta      map[string]any  `json:"_meta,omitempty"`
}

// encodeCallWithRoom encodes the params of a tools/call without _meta as
// encoded does, but with the arguments encoded straight into the same
// buffer, after jsonenc.TokenRoom spare bytes for the engine's progress
// token (see jsonenc.Roomy). One allocation where encodeArguments,
// encoded and the token took three.
func encodeCallWithRoom(name string, args any) (jsonenc.Roomy, error) {
	b := make([]byte, jsonenc.TokenRoom, jsonenc.TokenRoom+len(name)+96)
	b = append(b, `{"name":`...)
	b = jsonenc.AppendString(b, name)
	if args != nil {
		mark := len(b)
		b = append(b, `,"arguments":`...)
		var err error
		if b, err = appendArguments(b, args); err != nil {
			return nil, err
		}
		if len(b) == mark+len(`,"arguments":`) {
			b = b[:mark] // none: null arguments are left out
		}
	}
	return append(b, '}'), nil
}

// encoded is p, without _meta, as json.Marshal writes it; Arguments must
// be compact JSON (encodeArguments makes it so).
func (p *callToolParams) encoded() jsonenc.Encoded {
	b := make([]byte, 0, len(p.Name)+len(p.Arguments)+28)
	b = append(b, `{"name":`...)
	b = jsonenc.AppendString(b, p.Name)
	if len(p.Arguments) > 0 {
		b = append(b, `,"arguments":`...)
		b = append(b, p.Arguments...)
	}
	return append(b, '}')
}
