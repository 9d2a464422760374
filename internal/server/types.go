package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
)

// Implementation names a peer (serverInfo, clientInfo).
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// Tool describes a tool as tools/list shows it.
type Tool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// InputSchema defaults to {"type":"object"} when nil.
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	// Execution is sent as is; AddTaskTool sets it.
	Execution json.RawMessage `json:"execution,omitempty"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// ToolHandler runs one tools/call. A returned *jsonrpc.Error is sent as the
// JSON-RPC error; any other error becomes a result with isError set and the
// error's text, as MCP wants tool failures reported.
//
// ctx ends when the client cancels the call or the session ends; a handler
// must return soon after.
type ToolHandler func(ctx context.Context, req *ToolRequest) (*ToolResult, error)

// ToolResult is the result of tools/call.
type ToolResult struct {
	Content []Content `json:"content"`
	// StructuredContent is encoded as given (a json.RawMessage as is).
	StructuredContent any  `json:"structuredContent,omitempty"`
	IsError           bool `json:"isError,omitempty"`

	// raw, when set, is sent instead of the fields above (see largeTool).
	raw json.RawMessage
}

// TextResult is a result with one text block.
func TextResult(text string) *ToolResult {
	return &ToolResult{Content: []Content{TextContent(text)}}
}

// ErrorResult is an isError result with one text block.
func ErrorResult(text string) *ToolResult {
	return &ToolResult{Content: []Content{TextContent(text)}, IsError: true}
}

// Content is one content block. Only the fields of its Type are encoded.
type Content struct {
	// Type is "text", "image", "audio", "resource_link" or "resource".
	Type string
	// Text of a text block.
	Text string
	// Data of an image or audio block (raw bytes; encoded as base64).
	Data []byte
	// MIMEType of an image, audio or resource_link block.
	MIMEType string
	// URI and Name of a resource_link block.
	URI, Name string
	// Resource of an embedded resource block.
	Resource *ResourceContents
}

// TextContent returns a text block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// MarshalJSON encodes the block with the members its type requires; a text
// block always has "text", even when empty.
func (c Content) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": c.Type}
	switch c.Type {
	case "text":
		m["text"] = c.Text
	case "image", "audio":
		m["data"] = base64.StdEncoding.EncodeToString(c.Data)
		m["mimeType"] = c.MIMEType
	case "resource_link":
		m["uri"] = c.URI
		m["name"] = c.Name
		if c.MIMEType != "" {
			m["mimeType"] = c.MIMEType
		}
	case "resource":
		m["resource"] = c.Resource
	}
	return json.Marshal(m)
}

// Resource is a static resource: its listing and its content.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Text or Blob is what resources/read returns; Blob wins if both set.
	Text string `json:"-"`
	Blob []byte `json:"-"`
}

// ResourceContents is one entry of resources/read's contents.
type ResourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string
	Blob     []byte
}

// MarshalJSON encodes text or blob (base64), never both.
func (r *ResourceContents) MarshalJSON() ([]byte, error) {
	m := map[string]any{"uri": r.URI}
	if r.MIMEType != "" {
		m["mimeType"] = r.MIMEType
	}
	if r.Blob != nil {
		m["blob"] = base64.StdEncoding.EncodeToString(r.Blob)
	} else {
		m["text"] = r.Text
	}
	return json.Marshal(m)
}

func (r Resource) contents() ResourceContents {
	return ResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Blob: r.Blob}
}

// ResourceTemplate describes a family of resources by a URI template with
// simple {name} variables (RFC 6570 level 1).
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// ResourceTemplateHandler reads a resource matched by a template; vars holds
// the template's variables. Return a *jsonrpc.Error (e.g. code -32002) to
// say the resource does not exist.
type ResourceTemplateHandler func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error)

// Prompt describes a prompt as prompts/list shows it.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptHandler renders a prompt. Required arguments are checked by the
// server before it is called.
type PromptHandler func(ctx context.Context, args map[string]string) (*PromptResult, error)

// PromptResult is the result of prompts/get.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// CompletionRequest is a completion/complete request.
type CompletionRequest struct {
	// RefType is "ref/prompt" or "ref/resource"; RefName is the prompt name
	// or the resource URI (template).
	RefType, RefName string
	// Argument and Value are the argument being completed and its prefix.
	Argument, Value string
	// Context holds the other arguments already given (2025-06-18+).
	Context map[string]string
}

// Completion is the result of completion/complete.
type Completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}

// CompletionHandler answers completion/complete.
type CompletionHandler func(ctx context.Context, req *CompletionRequest) (*Completion, error)
