package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ToolRequest is one tools/call as a ToolHandler sees it.
type ToolRequest struct {
	// Name is the tool's name.
	Name string
	// Arguments is params.arguments as sent ({} when absent).
	Arguments json.RawMessage
	// Session is the client connection, for server→client requests and
	// notifications. Use the handler's ctx with them so that over HTTP they
	// travel on this call's reply stream.
	Session *Session
	// Meta is params._meta as sent (nil when absent): where a host puts
	// its traceparent.
	Meta json.RawMessage

	progressToken json.RawMessage
}

// HasProgressToken reports whether the client asked for progress.
func (r *ToolRequest) HasProgressToken() bool { return len(r.progressToken) > 0 }

// Progress sends notifications/progress for this call. It does nothing when
// the client sent no progressToken. total <= 0 and an empty message are
// left out.
func (r *ToolRequest) Progress(ctx context.Context, progress, total float64, message string) error {
	if !r.HasProgressToken() {
		return nil
	}
	p := map[string]any{"progressToken": r.progressToken, "progress": progress}
	if total > 0 {
		p["total"] = total
	}
	if message != "" {
		p["message"] = message
	}
	return r.Session.Notify(ctx, jsonrpc.MethodProgress, p)
}

// Bind decodes the arguments into v.
func (r *ToolRequest) Bind(v any) error {
	return json.Unmarshal(r.Arguments, v)
}

func (ss *Session) callTool(ctx context.Context, req *jsonrpc.Request) (any, error) {
	p, progressToken, err := decodeToolCall(req.Params)
	if err != nil {
		return nil, err
	}
	s := ss.srv
	s.mu.Lock()
	var entry toolEntry
	var ok bool
	if p.nameBytes != nil {
		entry, ok = s.toolLockedBytes(p.nameBytes)
	} else {
		entry, ok = s.toolLocked(p.Name)
	}
	s.mu.Unlock()
	if !ok {
		return nil, invalidParams("tools/call: unknown tool %q", p.name())
	}
	p.Name = entry.tool.Name // the same string, made once when the tool was added
	h := entry.handler
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	tr := &ToolRequest{Name: p.Name, Arguments: args, Session: ss}
	if len(p.Meta) > 0 && string(p.Meta) != "null" {
		tr.Meta = p.Meta
	}
	if len(progressToken) > 0 && string(progressToken) != "null" {
		tr.progressToken = progressToken
	}
	if task, required := entry.task, entry.task == TaskRequired; task != "" {
		if len(p.Task) > 0 {
			return ss.startTask(tr, h)
		}
		if required {
			return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, fmt.Sprintf("tools/call: tool %q requires task augmentation", p.Name))
		}
	}
	return runTool(ctx, h, tr)
}

// runTool runs a tool's handler and shapes its outcome as a result or a
// JSON-RPC error.
func runTool(ctx context.Context, h ToolHandler, tr *ToolRequest) (any, error) {
	res, err := h(ctx, tr)
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return nil, je
		}
		return ErrorResult(err.Error()), nil
	}
	if res == nil {
		res = &ToolResult{}
	}
	if res.raw != nil {
		return res.raw, nil
	}
	if res.Content == nil {
		res.Content = []Content{}
	}
	return res, nil
}
