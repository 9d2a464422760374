package cli

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Main's writers mask every registered secret, including one registered
// while output is being written (a token loaded by a server connecting in
// parallel), and pass other writes through unchanged.
func TestOutputMasksSecretsRegisteredAtAnyTime(t *testing.T) {
	var out syncBuffer
	io := &IOStreams{secrets: &secretSet{}}
	w := &lockedWriter{w: &redactWriter{w: &out, secrets: io.secrets}}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			io.AddSecret(fmt.Sprintf("token-%d-secret", i))
			fmt.Fprintf(w, "line %d: token-%d-secret\n", i, i)
		}()
	}
	wg.Wait()
	if got := out.String(); strings.Contains(got, "-secret") || strings.Count(got, "***") != 8 {
		t.Fatalf("output %q, want every token masked", got)
	}
	n, err := w.Write([]byte("nothing secret here\n"))
	if err != nil || n != len("nothing secret here\n") || !strings.HasSuffix(out.String(), "nothing secret here\n") {
		t.Fatalf("plain write: %d, %v, output %q", n, err, out.String())
	}
	if io.Redact("a token-3-secret b") != "a *** b" {
		t.Fatalf("Redact: %q", io.Redact("a token-3-secret b"))
	}
}
