package mcptest_test

import (
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	mcptest.RunIfChild()
	goleak.VerifyTestMain(m)
}
