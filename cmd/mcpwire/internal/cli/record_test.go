package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/wirerec"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// readRecording reads a --record file as mcptest's replay does, and
// checks that it is private to the user.
func readRecording(t *testing.T, path string) []wirerec.Entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Errorf("%s: mode %v (%v), want 0600", path, st.Mode().Perm(), err)
	}
	rec, err := wirerec.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// The round trip of docs/recordings.md: a command run with --record, then
// the same command against the recording, served by mcptest's replay in
// place of the server, prints the same.
func TestRecordThenReplay(t *testing.T) {
	hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	commands := [][]string{
		a("tools"),
		a("call", "add", "--arg", "a=2", "--arg", "b=3"),
		a("call", "elicit", "--elicit", "defaults"),
		a("call", "roots", "--root", t.TempDir()),
		a("resources", "--json"),
		a("read", mcptest.HelloURI),
		a("prompt", "summarize", "--arg", "topic=wires"),
	}
	targets := []struct {
		name, kind string
		target     []string
	}{
		{"stdio legacy", "stdio", server()},
		{"stdio modern", "stdio", args(a("--protocol", "2026-07-28"), server())},
		{"http legacy", "http", a(hs.URL)},
		{"http modern", "http", a("--protocol", "2026-07-28", hs.URL)},
	}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			var protocol []string
			if strings.Contains(tg.name, "modern") {
				protocol = a("--protocol", "2026-07-28")
			}
			for i, cmd := range commands {
				file := filepath.Join(t.TempDir(), "session.jsonl")
				recorded := run(t, args(cmd, a("--record", file), tg.target)...).wantCode(t, 0)
				rec := readRecording(t, file)
				sent, received := 0, 0
				for _, e := range rec {
					if e.Transport != tg.kind {
						t.Errorf("command %d: transport %q, want %q", i, e.Transport, tg.kind)
					}
					switch e.Direction {
					case "send":
						sent++
					case "receive":
						received++
					}
				}
				if sent < 2 || received < 2 {
					t.Errorf("command %d: %d sent and %d received messages recorded", i, sent, received)
				}
				replayed := run(t, args(cmd, protocol, a("--", os.Args[0], ServeName, "--replay", file))...).wantCode(t, 0)
				if replayed.out != recorded.out {
					t.Errorf("%q: the replay printed\n%s\nthe server printed\n%s", cmd, replayed.out, recorded.out)
				}
			}
		})
	}
}

// A request the recording does not hold fails as the server's error.
func TestReplayUnrecordedRequest(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "add.jsonl")
	run(t, args(a("call", "add", "--arg", "a=2", "--arg", "b=3", "--record", file), server())...).wantCode(t, 0)
	r := run(t, "call", "add", "--arg", "a=2", "--arg", "b=4", "--", os.Args[0], ServeName, "--replay", file).wantCode(t, ExitProtocol)
	if !strings.Contains(r.err, "no recorded tools/call request with these params is left") {
		t.Errorf("stderr %q", r.err)
	}
	r = run(t, "tools", "--", os.Args[0], ServeName, "--replay", filepath.Join(t.TempDir(), "missing.jsonl")).wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "missing.jsonl") {
		t.Errorf("missing recording: stderr %q", r.err)
	}
}

// What the command knows to be secret never reaches the file: env and
// header values, the bearer token, a config's values.
func TestRecordScrubsSecrets(t *testing.T) {
	const envSecret = "env-secret-0a1b2c"
	const token = "tok-secret-9f8e7d"
	const header = "hdr-secret-5e6f7a"
	t.Setenv("MCPWIRE_TEST_RECORD_TOKEN", token)
	hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	dir := t.TempDir()

	stdio := filepath.Join(dir, "stdio.jsonl")
	run(t, args(a("call", "echo", "--arg", "message=say "+envSecret, "--env", "K="+envSecret, "--record", stdio), server())...).wantCode(t, 0)
	web := filepath.Join(dir, "http.jsonl")
	run(t, "call", "echo", "--arg", "message=say "+token+" "+header, "--bearer-token-env", "MCPWIRE_TEST_RECORD_TOKEN",
		"--header", "X-Key: "+header, "--record", web, hs.URL).wantCode(t, 0)
	for _, file := range []string{stdio, web} {
		readRecording(t, file)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{envSecret, token, header} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds a secret:\n%s", filepath.Base(file), b)
			}
		}
		if !strings.Contains(string(b), `"text":"say [redacted]`) {
			t.Errorf("%s: the echoed secret is not marked redacted:\n%s", filepath.Base(file), b)
		}
		if strings.Contains(strings.ToLower(string(b)), "authorization") {
			t.Errorf("%s records headers:\n%s", filepath.Base(file), b)
		}
	}
}

// An existing file is replaced, as -o replaces one; one that cannot be
// created stops the command before any server starts; a recording that
// fails part way is a warning, never the command's failure.
func TestRecordFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "old.jsonl")
	write(t, file, strings.Repeat("old line\n", 1000))
	run(t, args(a("tools", "--record", file), server())...).wantCode(t, 0)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "old line") {
		t.Error("the old content is still there")
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := wirerec.Decode(f); err != nil {
		t.Errorf("the overwritten file: %v", err)
	}

	uncreatable := filepath.Join(dir, "no", "such", "dir.jsonl")
	r := run(t, args(a("tools", "--record", uncreatable), server("crash:initialize"))...).wantCode(t, ExitError)
	if !strings.HasPrefix(r.err, "mcpwire: --record: cannot create "+uncreatable+": no such file or directory") || r.out != "" {
		t.Errorf("uncreatable file: stdout %q, stderr %q", r.out, r.err)
	}

	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to fail the writes")
	}
	r = run(t, args(a("call", "echo", "--arg", "message=hi", "--record", "/dev/full"), server())...).wantCode(t, 0)
	if r.out != "hi\n" || !strings.Contains(r.err, "mcpwire: warning: the recording /dev/full is incomplete: ") {
		t.Errorf("failed writes: stdout %q, stderr %q", r.out, r.err)
	}
}

// Configured servers are recorded under their names, each through the
// manager's dial.
func TestRecordConfiguredServers(t *testing.T) {
	dir := project(t)
	for _, cmd := range []string{"tools", "servers"} {
		file := filepath.Join(dir, cmd+".jsonl")
		r := run(t, cmd, "--record", file)
		if r.code != ExitConnect { // "broken" fails; alpha and beta list
			t.Fatalf("%s: exit %d; stderr %q", cmd, r.code, r.err)
		}
		names := map[string]int{}
		for _, e := range readRecording(t, file) {
			names[e.Transport]++
		}
		// user:alpha (the user's own, refusing connections) is tried too.
		if names["alpha"] == 0 || names["beta"] == 0 || names["user:alpha"] == 0 || len(names) != 3 {
			t.Errorf("%s: servers recorded: %v", cmd, names)
		}
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), "tok-sekrit-4711") {
			t.Errorf("%s: a configured env value is in the recording", cmd)
		}
	}
}

// A secret registered after the file was opened (a token loaded while
// connecting) is kept out of the recording too.
func TestRecordLateSecret(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "late.jsonl")
	io := &IOStreams{ErrOut: &syncBuffer{}}
	f := &ServerFlags{Record: file}
	r, err := f.recorder(io)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	c, err := mcp.Connect(t.Context(), r.wrap(srv.Transport(), "pipe"), nil)
	if err != nil {
		t.Fatal(err)
	}
	const late = "late-secret-7c8d9e"
	io.AddSecret(late)
	if _, err := c.CallTool(t.Context(), "echo", map[string]any{"message": late}, nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	r.finish(io)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), late) || !strings.Contains(string(b), `"transport":"pipe"`) || !strings.Contains(string(b), "[redacted]") {
		t.Errorf("recording:\n%s", b)
	}
}

// The recording is private: a new file is 0600, an existing one is set
// to 0600 whatever its mode was, and a symbolic link at the path is an
// error naming it, with nothing written where the link points.
func TestRecordFileIsPrivateAndNoLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.jsonl")
	run(t, args(a("tools", "--record", fresh), server())...).wantCode(t, 0)
	old := filepath.Join(dir, "old.jsonl")
	write(t, old, "old line\n")
	if err := os.Chmod(old, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, args(a("tools", "--record", old), server())...).wantCode(t, 0)
	for _, f := range []string{fresh, old} {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := info.Mode().Perm(); m != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(f), m)
		}
	}

	target := filepath.Join(dir, "elsewhere")
	write(t, target, "precious\n")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	r := run(t, args(a("tools", "--record", link), server())...).wantCode(t, ExitError)
	if !strings.Contains(r.err, "--record: cannot create "+link+": it is a symbolic link") || r.out != "" {
		t.Errorf("symbolic link: stdout %q, stderr %q", r.out, r.err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the link's target was written: %q", b)
	}
}
