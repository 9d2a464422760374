package cli

import (
	"os"
	"runtime"
)

// limitProcs sets GOMAXPROCS to n unless the environment names a value,
// which the runtime has applied already and which stays the user's.
//
// mcpwire serve --stdio runs on one processor. Its work for each call is
// short (read a line, route it, relay the answer) and passes between a
// few goroutines; with more processors than that work needs, every
// hand-off wakes an idle thread that spins looking for work and sleeps
// again, on CPUs the host and the upstream servers also need. On the
// two-core bench machine one processor took about a third off the
// gateway's CPU per call at 64 concurrent calls and raised its throughput
// (bench/NOTES.md, the nineteenth round). serve --listen, which may serve
// many hosts at once, keeps every processor.
func limitProcs(n int) {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	runtime.GOMAXPROCS(n)
}
