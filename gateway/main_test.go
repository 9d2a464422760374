package gateway

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The call benchmark re-executes this binary as its stdio upstream.
	server.RunIfChild()
	goleak.VerifyTestMain(m)
}
