// Command mcptest-server runs mcptest's default MCP server on stdio, for
// trying an MCP client against a server that misbehaves on demand.
//
//	mcptest-server [-faults never-answer:tools/list,crash:slow] [-page-size 2] [-eras both|modern|legacy]
//	mcptest-server -replay session.jsonl
//
// Faults (see mcptest.ParseFault): malformed-line, unknown-id,
// duplicate-response, crash, never-answer, flood-stderr, huge-notification,
// flood-notifications (SIZE is then a count),
// each as KIND[:TARGET][=SIZE][*]. MCPTEST_FAULTS adds more.
//
// -replay serves a wire recording instead (see mcptest.NewReplay and
// docs/recordings.md): each request is answered as it was when recorded.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/mcpwire/mcpwire/mcptest"
)

func main() {
	faults := flag.String("faults", "", "comma-separated faults, KIND[:TARGET][=SIZE][*]")
	pageSize := flag.Int("page-size", 0, "items per page of the list methods (0: one page)")
	version := flag.String("protocol-version", "", "answer this protocol version to every initialize")
	eras := flag.String("eras", "", "protocol eras served: both (default), modern (2026-07-28 only) or legacy")
	replay := flag.String("replay", "", "serve the wire recording in this file instead of the default server")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "mcptest-server: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if *replay != "" {
		os.Exit(serveReplay(*replay))
	}
	if *pageSize < 0 {
		fmt.Fprintln(os.Stderr, "mcptest-server: -page-size must be >= 0")
		os.Exit(2)
	}
	list := *faults
	if env := os.Getenv(mcptest.EnvFaults); env != "" {
		list += "," + env
	}
	if *pageSize > 0 {
		os.Setenv(mcptest.EnvPageSize, strconv.Itoa(*pageSize))
	}
	if *version != "" {
		os.Setenv(mcptest.EnvProtocolVersion, *version)
	}
	if *eras != "" {
		os.Setenv(mcptest.EnvEras, *eras)
	}
	os.Exit(mcptest.RunStdio(list, os.Stderr))
}

// serveReplay serves the recording in path on stdio.
func serveReplay(path string) int {
	r, err := mcptest.OpenReplay(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mcptest-server: %v\n", err)
		return 2
	}
	defer r.Close()
	if err := r.ServeStdio(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "mcptest-server: %v\n", err)
		return 1
	}
	return 0
}
