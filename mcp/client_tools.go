package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/jsonscan"
	"github.com/mcpwire/mcpwire/internal/latecheck"
	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// CallOptions adjust one CallTool. A nil *CallOptions means the defaults.
type CallOptions struct {
	// Timeout overrides the client's ToolTimeout (the idle deadline that
	// progress pushes forward) for this call; zero means the client's,
	// NoTimeout disables it.
	Timeout time.Duration
	// MaxTimeout overrides the client's ToolMaxTimeout (the cap from the
	// call's start) for this call; zero means the client's, NoTimeout
	// disables it.
	MaxTimeout time.Duration
	// OnProgress receives the call's progress notifications in order, on
	// the caller's goroutine, with the call's ctx: the same shape as
	// ClientOptions.OnProgress, which sees them too. Progress is asked
	// for whether or not it is set, and each notification pushes the idle
	// deadline forward.
	OnProgress func(ctx context.Context, p ProgressNotification)
	// Meta is sent as params._meta.
	Meta map[string]any
}

// ListTools returns every tool, following nextCursor to the end. It also
// remembers each tool's outputSchema for CallTool to validate against;
// tools that are no longer listed are forgotten.
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	tools, _, err := c.ListToolsWithHint(ctx)
	return tools, err
}

// ListToolsPage fetches one page of tools/list ("" for the first). Tools
// without a name cannot be called, so they are dropped and reported to the
// ErrorHook; so are, in the modern era, tools whose input schema has
// invalid x-mcp-header annotations (the error wraps ErrInvalidToolHeaders).
// The page's outputSchemas and x-mcp-header fields are remembered for
// CallTool.
func (c *Client) ListToolsPage(ctx context.Context, cursor string) (*ListToolsResult, error) {
	var res ListToolsResult
	params := cursorParams(cursor)
	if c.modern == nil {
		// A large page may come unchecked by the codec, to be checked
		// by the page decoder as it reads it (see call).
		params = &latecheck.Params{Encoded: encodedCursorParams(cursor)}
	}
	if err := c.call(ctx, MethodToolsList, params, nil, &res); err != nil {
		return nil, err
	}
	known := c.learnTools()
	kept := res.Tools[:0]
	for i, t := range res.Tools {
		if t.Name == "" {
			c.report(fmt.Errorf("mcp: %s: dropped tool %d of the page: it has no name", MethodToolsList, i))
			continue
		}
		if c.modern != nil {
			fields, secret, err := toolHeaderFields(t.InputSchema)
			if err != nil {
				c.report(fmt.Errorf("mcp: %s: left out tool %q: %w: %v", MethodToolsList, clip(t.Name), ErrInvalidToolHeaders, err))
				continue
			}
			for _, s := range secret {
				c.report(fmt.Errorf("mcp: %s: tool %q: %s is not mirrored: the field is secret (writeOnly or format password)", MethodToolsList, clip(t.Name), s))
			}
			known.headers.learn(t.Name, fields)
		}
		kept = append(kept, t)
	}
	res.Tools = kept
	known.schemas.learn(res.Tools)
	if c.supportsToolTasks() {
		// Only such a server's tools can require a task (see
		// mustRunAsTask); a session of any other holds no task state.
		c.taskState().learnTaskSupport(res.Tools)
	}
	return &res, nil
}

// CallTool calls the named tool. args is encoded as the arguments object
// (a map, a struct, or a json.RawMessage; nil sends none).
//
// A tool that must run as a task (2025-11-25: listed with taskSupport
// "required", or answering a plain call -32601, on a server that declared
// task-augmented tools/call; on such a server the first CallTool lists the
// tools if the client has not) is run as one: CallTool starts the task,
// waits for it (see WaitTask) under the call's MaxTimeout, and returns its
// result; when ctx ends or the cap passes first, it cancels the task.
// Use StartToolTask to hold the task yourself.
//
// A tool that ran and failed is not a Go error: the result has IsError set.
// A JSON-RPC error (unknown tool, bad arguments) is returned as an error
// wrapping *jsonrpc.Error.
//
// When the tool was seen in ListTools or ListToolsPage with an
// outputSchema, a successful result's structuredContent is validated
// against it; a missing or non-conforming structuredContent returns the
// result together with an *OutputSchemaError. Tools never listed on this
// client are not validated.
func (c *Client) CallTool(ctx context.Context, name string, args any, opts *CallOptions) (*CallToolResult, error) {
	if name == "" {
		return nil, errors.New("mcp: tools/call: the tool name is empty")
	}
	if c.mustRunAsTask(ctx, name) {
		return c.callToolAsTask(ctx, name, args, opts)
	}
	p := callToolParams{Name: name}
	if opts != nil {
		p.Meta = opts.Meta
	}
	dst := seam.RawToolResultOf(ctx)
	var out any
	var box *oneBlockResult       // nil for a caller that takes the raw result (the gateway): it gets no blocks made
	var rawOut *rawCallToolResult // that caller's, nil for any other
	var res *CallToolResult
	if dst == nil {
		box = newOneBlockResult()
		res = &box.res
		out = res
	} else {
		res = new(CallToolResult)
		rawOut = &rawCallToolResult{res: res, dst: dst}
		out = rawOut
	}
	var params any
	if p.Meta == nil && c.modern == nil {
		// The usual call: the params are made with room for the
		// progress token, and the result may come unchecked by the
		// codec, to be checked as it is decoded (see call), unless it
		// is to be passed on raw.
		room, err := encodeCallWithRoom(name, args)
		if err != nil {
			return nil, fmt.Errorf("mcp: tools/call %q: %w", name, err)
		}
		if box != nil {
			box.late = latecheck.Params{Encoded: room.Params(), Room: room}
			params = &box.late
		} else {
			rawOut.params = room
			params = &rawOut.params
		}
	} else {
		if args != nil {
			raw, err := encodeArguments(args)
			if err != nil {
				return nil, fmt.Errorf("mcp: tools/call %q: %w", name, err)
			}
			p.Arguments = raw
		}
		if p.Meta != nil {
			params = p
		} else { // both eras: the modern one splices its _meta into these bytes
			params = p.encoded()
		}
	}
	copts := c.toolCallOptions(ctx, opts)
	hctx, err := c.withParamHeaders(ctx, name, p.Arguments)
	if err != nil {
		return nil, err
	}
	err = c.call(hctx, MethodToolsCall, params, &copts, out)
	if err != nil && c.modern != nil && isHeaderMismatch(err) && c.relistForHeaders(ctx, name) {
		// The server wants Mcp-Param headers this client did not know
		// of; the spec's answer is to list the tools and try again. A
		// refused header means the call did not run, so this is safe.
		if box != nil {
			box.reset()
		} else {
			*res = CallToolResult{}
		}
		if hctx, err = c.withParamHeaders(ctx, name, p.Arguments); err != nil {
			return nil, err
		}
		err = c.call(hctx, MethodToolsCall, p, &copts, out)
	}
	if err != nil {
		if c.supportsToolTasks() && isMethodNotFound(err) {
			// A tool that must run as a task answers a plain call
			// -32601; this client had not seen it listed.
			return c.callToolAsTask(ctx, name, args, opts)
		}
		return nil, err
	}
	box.settle()
	if err := c.tools.Load().check(name, res, c.report); err != nil {
		return res, err
	}
	return res, nil
}

// compactAlready reports that b holds no whitespace byte at all, so that
// json.Compact could not change it (it removes whitespace between tokens
// only; a string may hold a space, but then b is simply compacted).
func compactAlready(b []byte) bool {
	return len(b) > 0 && bytes.IndexByte(b, ' ') < 0 && bytes.IndexAny(b, "\t\n\r") < 0
}

func isMethodNotFound(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeMethodNotFound
}

// toolCallOptions applies the tool-call policy: the call's own timeouts,
// else WithRequestTimeout's, else the client's tool policy; and always a
// progress callback, so that the server may report progress and keep the
// call alive.
func (c *Client) toolCallOptions(ctx context.Context, opts *CallOptions) jsonrpc.CallOptions {
	o := jsonrpc.CallOptions{Timeout: c.opts.toolTimeout, MaxTimeout: c.opts.toolMax, OnProgress: ignoreProgress}
	if ro := requestOptions(ctx); ro != nil {
		o.Timeout = ro.Timeout
	}
	if opts != nil {
		if opts.Timeout != 0 {
			o.Timeout = opts.Timeout
		}
		if opts.MaxTimeout != 0 {
			o.MaxTimeout = opts.MaxTimeout
		}
		if fn := opts.OnProgress; fn != nil {
			o.OnProgress = func(p jsonrpc.Progress) { fn(ctx, progressNotification(p)) }
		}
	}
	if o.Timeout < 0 && o.MaxTimeout > 0 {
		// No idle deadline; the cap still holds. The engine knows only
		// an idle deadline under a ceiling, so the deadline is the cap
		// and so is the ceiling: progress, which moves the deadline by
		// Timeout, must not carry it past the cap.
		o.Timeout = o.MaxTimeout
	}
	return o
}

func ignoreProgress(jsonrpc.Progress) {}

// progressNotification is the engine's progress in the shape the
// callbacks take, with the token as the server sent it.
func progressNotification(p jsonrpc.Progress) ProgressNotification {
	n := ProgressNotification{Progress: p.Progress, Total: p.Total, Message: p.Message}
	var tok struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	}
	if json.Unmarshal(p.Raw, &tok) == nil {
		n.ProgressToken = tok.ProgressToken
	}
	return n
}

// appendArguments appends to dst what encodeArguments makes of args,
// nothing for none; a map[string]any is encoded straight into dst.
func appendArguments(dst []byte, args any) ([]byte, error) {
	if a, ok := args.(map[string]any); ok && a != nil {
		if b, ok := jsonenc.Append(dst, a); ok {
			return b, nil
		}
	}
	raw, err := encodeArguments(args)
	if err != nil {
		return nil, err
	}
	return append(dst, raw...), nil
}

// encodeArguments encodes args, which must come out as a JSON object (or
// null, meaning none), valid and compact. The usual map[string]any is
// encoded without reflection; a caller's json.RawMessage is checked and
// compacted, as encoding/json would when embedding it.
func encodeArguments(args any) (json.RawMessage, error) {
	var raw json.RawMessage
	switch a := args.(type) {
	case json.RawMessage:
		if compactAlready(a) {
			// What most callers pass (a host's arguments relayed by the
			// gateway among them): used as is, without the copy.
			if !jsonscan.Valid(a) {
				return nil, errors.New("the arguments are not valid JSON")
			}
			raw = a
			break
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, a); err != nil {
			return nil, errors.New("the arguments are not valid JSON")
		}
		raw = buf.Bytes()
	case map[string]any:
		if b, ok := jsonenc.Append(make([]byte, 0, 64), a); ok {
			raw = b
		}
	}
	if raw == nil {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			return nil, fmt.Errorf("encoding the arguments: %w", err)
		}
	}
	if string(raw) == "null" {
		return nil, nil
	}
	if !isJSONObject(raw) {
		return nil, fmt.Errorf("the arguments encode as %s; they must be a JSON object", jsonKind(raw))
	}
	return raw, nil
}
