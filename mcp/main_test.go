package mcp

import (
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	mcptest.RunIfChild() // the modern-era stdio tests re-run this binary as the server
	goleak.VerifyTestMain(m)
}
