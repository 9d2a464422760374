package jsonrpc

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: the
// engine promises that Close (or the end of the stream) stops everything
// it started.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
