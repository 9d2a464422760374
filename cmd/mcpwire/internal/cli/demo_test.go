package cli

import (
	"os"
	"strings"
	"testing"
)

// The demo in process: it starts this test binary as the example server
// (os.Executable), exactly as the real binary starts itself.
func TestDemo(t *testing.T) {
	t.Parallel()
	r := run(t, "demo").wantCode(t, 0)
	for _, want := range []string{
		"Server:        mcptest 1.0.0",
		// This test binary is not "mcpwire": the demo names a program
		// that runs (demoProgram, TestDemoProgram).
		"$ " + demoProgram(os.Args[0]) + " tools -- " + demoProgram(os.Args[0]) + " __serve-mcptest",
		"echo",
		"Hello from mcpwire!\n",
		"done after 5 steps\n",
		"structured content:\n{\n  \"sum\": 5\n}\n",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, r.out)
		}
	}
	if !strings.Contains(r.err, "progress slow: 5/5 (100%)") {
		t.Errorf("demo stderr lacks progress: %q", r.err)
	}
}
