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

// A secret is masked however a JSON encoder wrote it: a server echoing it
// in a reply that --json prints escapes its quote and backslash, Go's
// encoders escape <, > and &, and Python's writes non-ASCII as \uXXXX.
func TestOutputMasksSecretsAsJSONWritesThem(t *testing.T) {
	var out syncBuffer
	io := &IOStreams{secrets: &secretSet{}}
	w := &lockedWriter{w: &redactWriter{w: &out, secrets: io.secrets}}
	io.AddSecret(`pa"ss\wörd<&>-𝄞`)
	for _, written := range []string{
		`{"text":"pa\"ss\\wörd<&>-𝄞"}`,
		`{"text":"pa\"ss\\wörd\u003c\u0026\u003e-𝄞"}`,
		`{"text":"pa\"ss\\w\u00f6rd<&>-\ud834\udd1e"}`,
		`pa"ss\wörd<&>-𝄞`,
	} {
		fmt.Fprintln(w, written)
		if io.Redact(written) == written {
			t.Errorf("Redact left %s as it was", written)
		}
	}
	if got := out.String(); strings.Contains(got, "ss") || strings.Count(got, "***") != 4 {
		t.Fatalf("output %q, want the secret masked in every form", got)
	}
}
