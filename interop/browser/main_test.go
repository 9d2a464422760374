package browser

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

// mcpwireBin is the mcpwire binary built from this checkout for the tests.
var mcpwireBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpwire-browser-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mcpwireBin = filepath.Join(dir, "mcpwire")
	// Built in the root module, with its own dependencies (not this
	// module's, which only need what the tests import).
	build := exec.Command("go", "build", "-o", mcpwireBin, "./cmd/mcpwire")
	build.Dir = filepath.Join("..", "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mcpwire:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	if code == 0 {
		// Every browser, page server and inspector is gone.
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}
