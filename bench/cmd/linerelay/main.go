// Command linerelay is the floor of the gateway workload: a process
// between the host and a stdio server that copies bytes both ways and
// does nothing else. It parses no message, renames no tool and keeps no
// state, so what it adds to a call is the cost of one more process on
// the path (two more pipe crossings and their wake-ups), which any
// gateway pays before it does any work of its own.
//
// Usage: linerelay CMD [ARGS...]
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: linerelay CMD [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	toServer, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	hostDone := make(chan struct{})
	serverDone := make(chan struct{})
	go func() { pump(toServer, os.Stdin); toServer.Close(); close(hostDone) }()
	go func() { pump(os.Stdout, fromServer); close(serverDone) }()
	// The host closing stdin ends the server (its stdin closes); the
	// server ending first ends the relay too.
	select {
	case <-hostDone:
		<-serverDone
	case <-serverDone:
	}
	cmd.Wait()
}

// pump copies src to dst with one read and one write per chunk: no
// framing, so a line goes on as soon as its bytes arrive.
func pump(dst io.Writer, src io.Reader) {
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "linerelay:", err)
	os.Exit(1)
}
