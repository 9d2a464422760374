package mcp

import (
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A missing resource is ErrResourceNotFound in both eras, with the
// server's code kept in the chain: -32002 before 2026-07-28, -32602 from it.
func TestReadResourceNotFoundBothEras(t *testing.T) {
	for _, tc := range []struct {
		name string
		eras mcptest.Eras
		opts *ClientOptions
		code int64
	}{
		{"legacy", mcptest.LegacyOnly, &ClientOptions{}, jsonrpc.CodeResourceNotFound},
		{"modern", mcptest.ModernOnly, modernPin, jsonrpc.CodeInvalidParams},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := connectMCPTest(t, mcptest.NewDefault(&mcptest.Options{Eras: tc.eras}), tc.opts)
			_, err := c.ReadResource(t.Context(), "mcptest://no/such")
			if !errors.Is(err, ErrResourceNotFound) {
				t.Fatalf("err = %v, want ErrResourceNotFound", err)
			}
			var rpcErr *Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != tc.code {
				t.Errorf("err = %v, want the server's %d in the chain", err, tc.code)
			}
			if _, err := c.ReadResource(t.Context(), mcptest.HelloURI); err != nil {
				t.Errorf("an existing resource: %v", err)
			}
		})
	}
}

// Before 2026-07-28 a -32602 counts as not found only when it names the
// URI: otherwise it may be about malformed params.
func TestResourceNotFoundLegacyInvalidParams(t *testing.T) {
	c := &Client{}
	named := jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Resource not found")
	named.Data = []byte(`{"uri":"a://x"}`)
	if err := c.resourceNotFound("a://x", named); !errors.Is(err, ErrResourceNotFound) {
		t.Errorf("-32602 naming the URI: %v", err)
	}
	if err := c.resourceNotFound("a://y", named); errors.Is(err, ErrResourceNotFound) {
		t.Errorf("-32602 naming another URI counted as not found")
	}
	bare := jsonrpc.NewError(jsonrpc.CodeInvalidParams, "bad params")
	if err := c.resourceNotFound("a://x", bare); errors.Is(err, ErrResourceNotFound) {
		t.Errorf("a bare -32602 counted as not found in the legacy era")
	}
	c.modern = &modernSession{}
	if err := c.resourceNotFound("a://x", bare); !errors.Is(err, ErrResourceNotFound) {
		t.Errorf("the modern era's -32602: %v", err)
	}
}
