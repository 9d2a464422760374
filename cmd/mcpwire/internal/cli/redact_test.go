package cli

import (
	"bytes"
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

// A server's stderr reaches the terminal in pieces of any size (the
// ad-hoc server's live stream with --verbose; a configured server's
// overlong line), and a registered secret cut between two pieces must
// be masked all the same: the writer holds back the tail of a piece that
// could be the start of a secret until the rest comes.
func TestStreamedStderrMasksASecretCutInTwo(t *testing.T) {
	secret := "s3cr3t-t0ken-value"
	newStreams := func(out *bytes.Buffer) *IOStreams {
		io := &IOStreams{secrets: &secretSet{}}
		io.AddSecret(secret)
		io.ErrOut = &lockedWriter{w: &redactWriter{w: out, secrets: io.secrets}}
		return io
	}
	for cut := 1; cut < len(secret); cut++ {
		first, second := "token is "+secret[:cut], secret[cut:]+" and more\n"
		var live bytes.Buffer
		io := newStreams(&live)
		w := newSanitizeWriter(io.ErrOut, "[srv] ")
		w.secrets = io.secrets
		w.Write([]byte(first))
		w.Write([]byte(second))
		if !strings.Contains(live.String(), "[srv] token is ") || !strings.HasSuffix(live.String(), " and more\n") ||
			strings.Contains(live.String(), secret[len(secret)/2:]) || strings.Contains(live.String(), secret[:len(secret)/2]) {
			t.Errorf("live stream, cut at %d: %q", cut, live.String())
		}

		var long bytes.Buffer
		io = newStreams(&long)
		pw := &prefixWriter{w: io.ErrOut, prefix: "[srv] ", secrets: io.secrets}
		pad := strings.Repeat("x", maxHeldLine-len("token is ")-cut+1)
		pw.Write([]byte(pad + first))
		pw.Write([]byte(second))
		if strings.Contains(long.String(), secret[len(secret)/2:]) || strings.Contains(long.String(), secret[:len(secret)/2]) {
			t.Errorf("overlong line, cut at %d: part of the secret shows: %q", cut, long.String()[len(pad):])
		}
	}
}
