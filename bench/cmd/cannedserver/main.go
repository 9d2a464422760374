// Command cannedserver is the benchmark's MCP server (package canned). By
// default it speaks JSON lines on stdin and stdout and exits when stdin
// ends. With -http it serves Streamable HTTP on the given loopback address
// and prints "http://ADDR/mcp" on stdout once it listens; it exits when
// stdin ends, so the harness only has to close the pipe. -era modern
// serves the stateless 2026-07-28 revision only (canned.NewModernResponder).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/bench/canned"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this loopback address (e.g. 127.0.0.1:0) instead of stdio")
	sse := flag.Bool("sse", false, "with -http: answer requests with an SSE stream instead of a JSON body")
	era := flag.String("era", "legacy", "the protocol era served: legacy (initialize; up to 2025-11-25) or modern (2026-07-28 only, stateless)")
	flag.Parse()
	var rsp *canned.Responder
	switch *era {
	case "legacy":
		rsp = canned.NewResponder()
	case "modern":
		rsp = canned.NewModernResponder()
	default:
		fmt.Fprintf(os.Stderr, "cannedserver: -era %q: want legacy or modern\n", *era)
		os.Exit(2)
	}
	if *addr == "" {
		if err := canned.ServeStdio(rsp, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "cannedserver:", err)
			os.Exit(1)
		}
		return
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !(host == "127.0.0.1" || host == "localhost" || host == "::1") {
		fmt.Fprintf(os.Stderr, "cannedserver: -http %q: want a loopback host:port such as 127.0.0.1:0\n", *addr)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannedserver:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", canned.Handler(rsp, *sse))
	srv := &http.Server{Handler: mux}
	go func() {
		// The harness closes stdin to stop the server.
		io.Copy(io.Discard, bufio.NewReader(os.Stdin))
		srv.Close()
	}()
	fmt.Printf("http://%s/mcp\n", strings.TrimSpace(ln.Addr().String()))
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "cannedserver:", err)
		os.Exit(1)
	}
}
