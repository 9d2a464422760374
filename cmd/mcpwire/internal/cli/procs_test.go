package cli

import (
	"os"
	"runtime"
	"slices"
	"testing"
)

// serve --stdio asks for one processor (procs.go); other commands keep
// the process as it is.
func TestServeStdioRunsOnOneProcessor(t *testing.T) {
	var asked []int
	streams := &IOStreams{limitProcs: func(n int) { asked = append(asked, n) }}
	runIO(t, t.Context(), streams, "serve", "--stdio", "--", os.Args[0], ServeName).wantCode(t, 0)
	if !slices.Equal(asked, []int{1}) {
		t.Fatalf("serve --stdio asked for processors %v, want [1]", asked)
	}

	asked = nil
	runIO(t, t.Context(), &IOStreams{limitProcs: func(n int) { asked = append(asked, n) }}, "tools", "--", os.Args[0], ServeName).wantCode(t, 0)
	if asked != nil {
		t.Fatalf("tools asked for processors %v, want none", asked)
	}
}

// A GOMAXPROCS the user set stays: the runtime applied it at start.
func TestLimitProcsKeepsTheUsersChoice(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })

	t.Setenv("GOMAXPROCS", "7")
	limitProcs(1)
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("with GOMAXPROCS set, limitProcs changed it from %d to %d", before, got)
	}

	os.Unsetenv("GOMAXPROCS") // t.Setenv restores it
	limitProcs(1)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("without GOMAXPROCS, limitProcs(1) left %d processors", got)
	}
}
