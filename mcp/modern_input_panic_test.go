package mcp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// A handler that panics while answering a modern input_required round
// fails that call with an *InputError saying so, as the same handler's
// panic on an older era's server request becomes an internal-error
// answer: the panic does not run up the caller's stack, and the session
// goes on.
func TestModernInputHandlerPanicIsAnError(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	var mu sync.Mutex
	var reported []error
	c, _ := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
		o.Sampling = func(context.Context, *CreateMessageRequest) (*CreateMessageResult, error) {
			panic("sampling handler bug")
		}
		o.ErrorHook = func(err error) {
			mu.Lock()
			reported = append(reported, err)
			mu.Unlock()
		}
	}))
	var err error
	func() {
		defer func() {
			if v := recover(); v != nil {
				t.Fatalf("CallTool panicked with the handler's panic: %v", v)
			}
		}()
		_, err = c.CallTool(t.Context(), "sample", map[string]any{"prompt": "hi"}, nil)
	}()
	var inErr *InputError
	if !errors.As(err, &inErr) || inErr.Asked != MethodSamplingCreateMessage || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("CallTool: %v, want an *InputError saying the %s handler panicked", err, MethodSamplingCreateMessage)
	}
	mu.Lock()
	n := len(reported)
	mu.Unlock()
	if n == 0 {
		t.Error("the panic was not told to the ErrorHook")
	}
	if _, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "still here"}, nil); err != nil {
		t.Errorf("the session after the panic: %v", err)
	}
}
