package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ErrSamplingRejected answers a sampling request the user declined (-1).
// Return it, or an error wrapping it, from ClientOptions.Sampling.
var ErrSamplingRejected = &jsonrpc.Error{Code: jsonrpc.CodeUserRejected, Message: "the user rejected the sampling request"}

// handle answers the server's requests. It runs concurrently, once per
// request; ctx ends when the server cancels (the engine then sends no
// response).
//
// The handlers' ctx carries the client's Origin.
func (c *Client) handle(ctx context.Context, _ *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case MethodPing:
		return nil, nil // {}
	case MethodRootsList:
		if c.caps.Roots != nil {
			return c.listRoots(c.withOrigin(ctx))
		}
	case MethodSamplingCreateMessage:
		if c.opts.Sampling != nil {
			return c.createMessage(c.withOrigin(ctx), req)
		}
	case MethodElicitationCreate:
		if c.caps.Elicitation != nil {
			return c.elicit(c.withOrigin(ctx), req)
		}
	}
	return nil, noHandlerError{&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", clip(req.Method))}}
}

// noHandlerError is handle's answer to a request no handler is registered
// for: method not found on the wire, and, for input requests, told apart
// from a handler's own method-not-found (a gateway's relay refusing because
// its host did not declare the capability), whose message is kept.
type noHandlerError struct{ rpc *jsonrpc.Error }

func (e noHandlerError) Error() string { return e.rpc.Error() }
func (e noHandlerError) Unwrap() error { return e.rpc }

func (c *Client) listRoots(ctx context.Context) (*listRootsResult, error) {
	var roots []Root
	if c.opts.Roots != nil {
		var err error
		if roots, err = c.opts.Roots(ctx); err != nil {
			return nil, err
		}
		if err := checkRoots(roots); err != nil {
			return nil, err
		}
	} else {
		if r := c.roots.Load(); r != nil {
			roots = slices.Clone(*r)
		}
	}
	if roots == nil {
		roots = []Root{} // "roots" is required: [] not null
	}
	return &listRootsResult{Roots: roots}, nil
}

func (c *Client) createMessage(ctx context.Context, req *jsonrpc.Request) (*CreateMessageResult, error) {
	var p CreateMessageRequest
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	res, err := c.opts.Sampling(ctx, &p)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("the sampling handler returned no result")
	}
	if res.Role == "" {
		res.Role = RoleAssistant
	}
	return res, nil
}

func (c *Client) elicit(ctx context.Context, req *jsonrpc.Request) (*ElicitResult, error) {
	var p ElicitRequest
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if p.Mode == "" {
		p.Mode = ElicitModeForm
	}
	handler := c.opts.Elicitation
	if p.Mode == ElicitModeURL {
		handler = c.opts.ElicitationURL
	} else if p.Mode != ElicitModeForm {
		handler = nil
	}
	if handler == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("elicitation mode %q was not declared by the client", clip(p.Mode))}
	}
	res, err := handler(ctx, &p)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("the elicitation handler returned no result")
	}
	switch res.Action {
	case ElicitAccept:
		if p.Mode != ElicitModeForm {
			res.Content = nil // content belongs to a form accept only
		}
	case ElicitDecline, ElicitCancel:
		res.Content = nil
	default:
		return nil, fmt.Errorf("the elicitation handler returned action %q (want accept, decline or cancel)", res.Action)
	}
	return res, nil
}

// decodeParams decodes a request's params; a failure answers -32602.
func decodeParams(req *jsonrpc.Request, v any) error {
	if len(req.Params) == 0 {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: req.Method + ": params are missing"}
	}
	if err := json.Unmarshal(req.Params, v); err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s: invalid params: %v", req.Method, err)}
	}
	return nil
}

// SetRoots replaces the client's roots list (see ClientOptions.InitialRoots)
// and sends notifications/roots/list_changed, so the server asks again.
// It fails when roots were not declared, or when ClientOptions.Roots
// supplies them (then call NotifyRootsChanged).
func (c *Client) SetRoots(ctx context.Context, roots []Root) error {
	if c.caps.Roots == nil {
		return errors.New("mcp: SetRoots: the client did not declare roots (set ClientOptions.InitialRoots or Roots)")
	}
	if c.opts.Roots != nil {
		return errors.New("mcp: SetRoots: ClientOptions.Roots supplies the roots; call NotifyRootsChanged when its answer changes")
	}
	if err := checkRoots(roots); err != nil {
		return fmt.Errorf("mcp: SetRoots: %w", err)
	}
	kept := slices.Clone(roots)
	c.roots.Store(&kept)
	return c.NotifyRootsChanged(ctx)
}

// NotifyRootsChanged sends notifications/roots/list_changed.
func (c *Client) NotifyRootsChanged(ctx context.Context) error {
	if c.caps.Roots == nil {
		return errors.New("mcp: NotifyRootsChanged: the client did not declare roots")
	}
	if c.modern != nil {
		return nil // the modern era asks for roots per request, so there is nothing to tell
	}
	if err := c.conn.Notify(ctx, NotificationRootsListChanged, nil); err != nil {
		return fmt.Errorf("mcp: %s: %w", NotificationRootsListChanged, err)
	}
	return nil
}
