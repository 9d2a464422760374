package mcp

import (
	"encoding/json"
	"errors"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ErrResourceNotFound is wrapped by the error of a ReadResource whose
// resource the server does not have, in every era: -32002 up to
// 2025-11-25, -32602 from 2026-07-28 (and from older servers that already
// answer -32602 with data.uri naming the resource). errors.As still finds
// the server's *Error in the chain.
var ErrResourceNotFound = errors.New("mcp: resource not found")

// notFoundError is a read's error recognised as a missing resource.
type notFoundError struct{ err error }

func (e *notFoundError) Error() string   { return e.err.Error() }
func (e *notFoundError) Unwrap() []error { return []error{ErrResourceNotFound, e.err} }

// resourceNotFound marks err, the error of reading uri, when the server
// said the resource does not exist.
func (c *Client) resourceNotFound(uri string, err error) error {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		return err
	}
	switch rpcErr.Code {
	case jsonrpc.CodeResourceNotFound:
	case jsonrpc.CodeInvalidParams:
		// The modern era's code for it; an older server's -32602 may
		// be about malformed params, so it counts only naming the URI.
		if c.modern == nil {
			var data struct {
				URI string `json:"uri"`
			}
			if json.Unmarshal(rpcErr.Data, &data) != nil || data.URI != uri {
				return err
			}
		}
	default:
		return err
	}
	return &notFoundError{err}
}
