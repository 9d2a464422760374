package transport

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// childModeEnv selects what the re-executed test binary does.
const childModeEnv = "MCPWIRE_TEST_CHILD"

// TestMain runs the test binary either as the tests, with a leak check, or
// as a child process for the stdio tests (MCPWIRE_TEST_CHILD names the
// child's behaviour, see stdio_child_test.go).
func TestMain(m *testing.M) {
	if mode := os.Getenv(childModeEnv); mode != "" {
		os.Exit(runChild(mode))
	}
	goleak.VerifyTestMain(m)
}
