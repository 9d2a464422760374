//go:build unix

package transport

import (
	"context"
	"os"
	"testing"
)

// BenchmarkStdioRoundTrip is one request and its response through a real
// child process (this test binary in echo mode).
func BenchmarkStdioRoundTrip(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	s, err := (&Command{Command: exe, Env: map[string]string{childModeEnv: childEcho}}).Connect(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	roundTrips(b, s)
}
