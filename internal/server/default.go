package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// URIs of NewDefault's resources.
const (
	HelloURI        = "mcptest://static/hello.txt"
	BlobURI         = "mcptest://static/blob.bin"
	ItemURITemplate = "mcptest://item/{id}"
)

// HelloText is the content of HelloURI.
const HelloText = "Hello from mcptest!"

// BlobBytes is the content of BlobURI.
var BlobBytes = []byte{0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff, 'm', 'c', 'p'}

// maxLargeBytes bounds the large tool's size argument.
const maxLargeBytes = 256 << 20

// NewDefault returns the built-in example server (opts may be nil):
//
// Tools:
//   - echo {message}: returns message as text.
//   - add {a, b}: returns the sum as text and as structuredContent {sum},
//     with an outputSchema.
//   - slow {steps=3, delay_ms=10}: waits delay_ms per step, honouring
//     cancellation, and reports progress after each step.
//   - fail: returns an isError result.
//   - bad-output: returns structuredContent that violates its outputSchema.
//   - large {bytes}: returns one text block of that many bytes ("x"), up
//     to 256 MiB.
//   - sample {prompt}: asks the client for sampling/createMessage and
//     returns the text of its answer.
//   - elicit {message}: sends a form elicitation/create whose every field
//     has a default, and returns the client's answer as JSON text.
//   - roots: sends roots/list and returns the client's answer as JSON text.
//   - log {level, message}: sends notifications/message (subject to
//     logging/setLevel) and says whether it was sent.
//   - touch {uri}: sends notifications/resources/updated for uri to the
//     sessions subscribed to it.
//   - add-tool {name}: registers another echo tool under name, which
//     sends notifications/tools/list_changed.
//
// Resources: HelloURI (text), BlobURI (blob) and the template
// ItemURITemplate ("item <id>"). Prompts: greeting (no arguments) and
// summarize {topic (required), style}. Completion: summarize's topic and
// style, and the template's id.
//
// opts configures it as NewServer's do; nil means the defaults.
func NewDefault(opts *Options) *Server {
	s := NewServer(opts)
	addDefaultTools(s)
	s.AddResource(Resource{URI: HelloURI, Name: "hello.txt", Title: "Hello", MIMEType: "text/plain", Text: HelloText})
	s.AddResource(Resource{URI: BlobURI, Name: "blob.bin", MIMEType: "application/octet-stream", Blob: BlobBytes})
	s.AddResourceTemplate(ResourceTemplate{URITemplate: ItemURITemplate, Name: "item", MIMEType: "text/plain"},
		func(_ context.Context, uri string, vars map[string]string) ([]ResourceContents, error) {
			return []ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "item " + vars["id"]}}, nil
		})
	s.AddPrompt(Prompt{Name: "greeting", Description: "A fixed greeting."},
		func(context.Context, map[string]string) (*PromptResult, error) {
			return &PromptResult{Messages: []PromptMessage{{Role: "user", Content: TextContent("Say hello to the mcptest server.")}}}, nil
		})
	s.AddPrompt(Prompt{Name: "summarize", Description: "Summarize a topic.", Arguments: []PromptArgument{
		{Name: "topic", Description: "what to summarize", Required: true},
		{Name: "style", Description: "brief, detailed or bullet-points"},
	}}, func(_ context.Context, args map[string]string) (*PromptResult, error) {
		style := args["style"]
		if style == "" {
			style = "brief"
		}
		text := fmt.Sprintf("Summarize %s in a %s style.", args["topic"], style)
		return &PromptResult{Description: "Summarize " + args["topic"], Messages: []PromptMessage{{Role: "user", Content: TextContent(text)}}}, nil
	})
	s.SetCompletion(defaultCompletion)
	return s
}

func defaultCompletion(_ context.Context, req *CompletionRequest) (*Completion, error) {
	var candidates []string
	switch {
	case req.RefType == "ref/prompt" && req.RefName == "summarize" && req.Argument == "style":
		candidates = []string{"brief", "bullet-points", "detailed"}
	case req.RefType == "ref/prompt" && req.RefName == "summarize" && req.Argument == "topic":
		candidates = []string{"go", "json-rpc", "mcp"}
	case req.RefType == "ref/resource" && req.RefName == ItemURITemplate && req.Argument == "id":
		candidates = []string{"1", "2", "3"}
	}
	out := []string{}
	for _, c := range candidates {
		if strings.HasPrefix(c, req.Value) {
			out = append(out, c)
		}
	}
	return &Completion{Values: out, Total: len(out)}, nil
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

const sumSchema = `{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`

func addDefaultTools(s *Server) {
	s.AddTool(Tool{Name: "echo", Description: "Returns its message.",
		InputSchema: schema(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
	}, echoTool)
	s.AddTool(Tool{Name: "add", Description: "Adds a and b.",
		InputSchema:  schema(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
		OutputSchema: schema(sumSchema),
		Annotations:  schema(`{"readOnlyHint":true,"idempotentHint":true}`),
	}, addTool)
	s.AddTool(Tool{Name: "slow", Description: "Waits delay_ms per step and reports progress after each step.",
		InputSchema: schema(`{"type":"object","properties":{"steps":{"type":"integer","minimum":0},"delay_ms":{"type":"integer","minimum":0}}}`),
	}, slowTool)
	s.AddTool(Tool{Name: "fail", Description: "Always fails with an isError result."},
		func(context.Context, *ToolRequest) (*ToolResult, error) {
			return ErrorResult("the fail tool always fails"), nil
		})
	s.AddTool(Tool{Name: "bad-output", Description: "Returns structuredContent that violates its outputSchema.",
		OutputSchema: schema(sumSchema),
	}, func(context.Context, *ToolRequest) (*ToolResult, error) {
		return &ToolResult{Content: []Content{TextContent(`{"sum":"not a number"}`)},
			StructuredContent: map[string]any{"sum": "not a number"}}, nil
	})
	s.AddTool(Tool{Name: "large", Description: "Returns a text block of the given size in bytes.",
		InputSchema: schema(`{"type":"object","properties":{"bytes":{"type":"integer","minimum":0}},"required":["bytes"]}`),
	}, largeTool)
	s.AddTool(Tool{Name: "sample", Description: "Asks the client to sample a message and returns its text.",
		InputSchema: schema(`{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`),
	}, sampleTool)
	s.AddTool(Tool{Name: "elicit", Description: "Asks the client to fill a form with defaults and returns the answer.",
		InputSchema: schema(`{"type":"object","properties":{"message":{"type":"string"}}}`),
	}, elicitTool)
	s.AddTool(Tool{Name: "roots", Description: "Asks the client for its roots and returns them."},
		func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			raw, err := req.Session.ListRoots(ctx)
			if err != nil {
				return ErrorResult("roots/list failed: " + err.Error()), nil
			}
			return TextResult(string(raw)), nil
		})
	s.AddTool(Tool{Name: "log", Description: "Sends a log message to the client.",
		InputSchema: schema(`{"type":"object","properties":{"level":{"type":"string"},"message":{"type":"string"}},"required":["message"]}`),
	}, logTool)
	s.AddTool(Tool{Name: "touch", Description: "Announces that a resource changed to its subscribers.",
		InputSchema: schema(`{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}`),
	}, func(_ context.Context, req *ToolRequest) (*ToolResult, error) {
		var a struct {
			URI string `json:"uri"`
		}
		if err := req.Bind(&a); err != nil || a.URI == "" {
			return ErrorResult("touch needs {uri: string}"), nil
		}
		s.ResourceUpdated(a.URI)
		return TextResult("updated " + a.URI), nil
	})
	s.AddTool(Tool{Name: "add-tool", Description: "Registers another echo tool under the given name.",
		InputSchema: schema(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	}, func(_ context.Context, req *ToolRequest) (*ToolResult, error) {
		var a struct {
			Name string `json:"name"`
		}
		if err := req.Bind(&a); err != nil || a.Name == "" {
			return ErrorResult("add-tool needs {name: string}"), nil
		}
		s.AddTool(Tool{Name: a.Name, Description: "An echo tool added at run time.",
			InputSchema: schema(`{"type":"object","properties":{"message":{"type":"string"}}}`)}, echoTool)
		return TextResult("added " + a.Name), nil
	})
}

func echoTool(_ context.Context, req *ToolRequest) (*ToolResult, error) {
	var a struct {
		Message *string `json:"message"`
	}
	if err := req.Bind(&a); err != nil || a.Message == nil {
		return ErrorResult("echo needs {message: string}"), nil
	}
	return TextResult(*a.Message), nil
}

func addTool(_ context.Context, req *ToolRequest) (*ToolResult, error) {
	var a struct {
		A, B *float64
	}
	if err := req.Bind(&a); err != nil || a.A == nil || a.B == nil {
		return ErrorResult("add needs {a: number, b: number}"), nil
	}
	sum := *a.A + *a.B
	return &ToolResult{
		Content:           []Content{TextContent(strconv.FormatFloat(sum, 'g', -1, 64))},
		StructuredContent: map[string]float64{"sum": sum},
	}, nil
}

func slowTool(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
	a := struct {
		Steps   int `json:"steps"`
		DelayMS int `json:"delay_ms"`
	}{Steps: 3, DelayMS: 10}
	if err := req.Bind(&a); err != nil || a.Steps < 0 || a.Steps > 100000 || a.DelayMS < 0 {
		return ErrorResult("slow needs {steps: 0..100000, delay_ms: >= 0}"), nil
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for i := 1; i <= a.Steps; i++ {
		timer.Reset(time.Duration(a.DelayMS) * time.Millisecond)
		select {
		case <-timer.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if err := req.Progress(ctx, float64(i), float64(a.Steps), fmt.Sprintf("step %d of %d", i, a.Steps)); err != nil {
			return nil, err
		}
	}
	return TextResult(fmt.Sprintf("done after %d steps", a.Steps)), nil
}

func largeTool(_ context.Context, req *ToolRequest) (*ToolResult, error) {
	var a struct {
		Bytes *int `json:"bytes"`
	}
	if err := req.Bind(&a); err != nil || a.Bytes == nil || *a.Bytes < 0 || *a.Bytes > maxLargeBytes {
		return ErrorResult(fmt.Sprintf("large needs {bytes: 0..%d}", maxLargeBytes)), nil
	}
	return &ToolResult{raw: rawJSONString(`{"content":[{"type":"text","text":`, *a.Bytes, `}]}`)}, nil
}

func sampleTool(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
	var a struct {
		Prompt string `json:"prompt"`
	}
	if err := req.Bind(&a); err != nil {
		return ErrorResult("sample needs {prompt: string}"), nil
	}
	raw, err := req.Session.CreateMessage(ctx, map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]string{"type": "text", "text": a.Prompt}}},
		"maxTokens": 100,
	})
	if err != nil {
		return ErrorResult("sampling/createMessage failed: " + err.Error()), nil
	}
	text, err := sampledText(raw)
	if err != nil {
		return ErrorResult(err.Error()), nil
	}
	return TextResult(text), nil
}

// sampledText takes the text out of a CreateMessageResult, whose content is
// one block or (2025-11-25) an array of blocks.
func sampledText(raw json.RawMessage) (string, error) {
	var r struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return "", fmt.Errorf("sampling/createMessage result: %w", err)
	}
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var blocks []block
	if err := json.Unmarshal(r.Content, &blocks); err != nil {
		var one block
		if err := json.Unmarshal(r.Content, &one); err != nil {
			return "", errors.New("sampling/createMessage result: content is neither a block nor an array of blocks")
		}
		blocks = []block{one}
	}
	i := slices.IndexFunc(blocks, func(b block) bool { return b.Type == "text" })
	if i < 0 {
		return "", errors.New("sampling/createMessage result: no text block")
	}
	return blocks[i].Text, nil
}

// elicitSchema is the form the elicit tool sends; every field has a default.
const elicitSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","title":"Name","default":"mcptest"},` +
	`"count":{"type":"integer","minimum":0,"default":3},` +
	`"ratio":{"type":"number","default":0.5},` +
	`"color":{"type":"string","enum":["red","green","blue"],"default":"green"},` +
	`"ok":{"type":"boolean","default":true}},` +
	`"required":["name"]}`

func elicitTool(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
	var a struct {
		Message string `json:"message"`
	}
	_ = req.Bind(&a)
	if a.Message == "" {
		a.Message = "Please fill in the mcptest form."
	}
	raw, err := req.Session.Elicit(ctx, map[string]any{"message": a.Message, "requestedSchema": json.RawMessage(elicitSchema)})
	if err != nil {
		return ErrorResult("elicitation/create failed: " + err.Error()), nil
	}
	return &ToolResult{Content: []Content{TextContent(string(raw))}, StructuredContent: raw}, nil
}

func logTool(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
	a := struct {
		Level   string `json:"level"`
		Message string `json:"message"`
	}{Level: "info"}
	if err := req.Bind(&a); err != nil {
		return ErrorResult("log needs {level?: string, message: string}"), nil
	}
	sent, err := req.Session.Log(ctx, a.Level, a.Message)
	if err != nil {
		return nil, err
	}
	if !sent {
		return TextResult("filtered by the client's log level"), nil
	}
	return TextResult("sent"), nil
}
