package manager

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpwire/mcpwire/mcptest"
)

func TestMain(m *testing.M) {
	// The stdio tests re-execute this binary as a real MCP server.
	mcptest.RunIfChild()
	goleak.VerifyTestMain(m)
}
