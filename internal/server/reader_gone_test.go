//go:build unix

package server

import (
	"context"
	"errors"
	"io"
	"syscall"
	"testing"
	"time"
)

// A client that closes its end of the server's output while its input
// stays open ends the session: nothing sent can arrive any more, and a
// server (or a gateway) that kept serving would run on with nobody to
// answer. Serve returns an error that says so.
func TestServeEndsWhenTheClientStopsReading(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := osPipe(t)
	outR.Close() // the client reads no more
	srv := NewDefault(nil)
	defer srv.Close()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(context.Background(), newLineStream(inR, outW, func() error {
			return errors.Join(inR.Close(), outW.Close())
		}))
	}()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if !errors.Is(err, syscall.EPIPE) {
			t.Fatalf("Serve = %v, want an error wrapping EPIPE", err)
		}
	case <-time.After(hangBound):
		t.Fatalf("Serve still runs %v after its answer could not be written", hangBound)
	}
}
