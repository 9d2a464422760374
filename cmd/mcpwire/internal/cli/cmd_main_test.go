package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestMain doubles as the example server: started with the hidden serve
// command, the test binary behaves as "mcpwire __serve-mcptest" (and, with
// "serve", as the gateway), so these
// tests (and "mcpwire demo", via os.Executable) talk to a real child
// process over stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Exit(Run(os.Args[1:])) // with mcpwire's own signal handling
	}
	if len(os.Args) > 1 && os.Args[1] == ServeName {
		os.Exit(Main(context.Background(), System(), os.Args[1:]))
	}
	if len(os.Args) > 1 && os.Args[1] == secretsServerName {
		os.Exit(secretsServer())
	}
	if os.Getenv(runAsMcpwire) == "1" {
		os.Exit(Run(os.Args[1:])) // as cmd/mcpwire's main does (pty_test.go)
	}
	goleak.VerifyTestMain(m)
}

// server returns the target arguments that start the example server as a
// child, with mcptest faults armed when given.
func server(faults ...string) []string {
	args := []string{"--", os.Args[0], ServeName}
	if len(faults) > 0 {
		args = append(args, "--faults", strings.Join(faults, ","))
	}
	return args
}

// pinModern pins the 2026-07-28 era for tests whose golden output is
// that era's. The example server speaks both eras, and which one the
// default negotiation settles on depends on the server answering its
// server/discover within the probe bound (500 ms), which a loaded machine
// running the whole suite under -race does not always give it; the
// negotiation itself is tested in mcp and by TestProtocolFlag.
var pinModern = []string{"--protocol", "2026-07-28"}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a run
// (server stderr, progress, output).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type result struct {
	out, err string
	code     int
}

// run runs mcpwire in process with args, stdin empty, stderr not a
// terminal, 80 columns.
func run(t *testing.T, args ...string) result {
	t.Helper()
	return runIO(t, t.Context(), &IOStreams{In: strings.NewReader("")}, args...)
}

// runIO runs mcpwire with the given streams; Out and ErrOut are replaced
// by buffers when nil.
func runIO(t *testing.T, ctx context.Context, io *IOStreams, args ...string) result {
	t.Helper()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	if io.Out == nil {
		io.Out = out
	}
	if io.ErrOut == nil {
		io.ErrOut = errOut
	}
	if io.In == nil {
		io.In = strings.NewReader("")
	}
	code := Main(ctx, io, args)
	return result{out: out.String(), err: errOut.String(), code: code}
}

// wantCode fails the test when r did not exit with code.
func (r result) wantCode(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.out, r.err)
	}
	return r
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (-update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// args joins argument lists.
func args(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

func a(s ...string) []string { return s }
