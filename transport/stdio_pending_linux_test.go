//go:build linux

package transport

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A child that never reads its stdin leaves what was written there
// pending, and the stream says how much.
func TestPendingInput(t *testing.T) {
	s, err := (&Command{Command: "sleep", Args: []string{"30"}}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, ok := s.(seam.InputPending)
	if !ok {
		t.Fatal("the stdio stream does not implement seam.InputPending")
	}
	if n, ok := p.PendingInput(); !ok || n != 0 {
		t.Fatalf("before any write: %d, %v", n, ok)
	}
	if err := s.Write(t.Context(), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "server/discover"}); err != nil {
		t.Fatal(err)
	}
	if n, ok := p.PendingInput(); !ok || n == 0 {
		t.Fatalf("after a write the child never read: %d, %v", n, ok)
	}
}
