package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
)

func TestWanted(t *testing.T) {
	for _, c := range []struct {
		p    Parsed
		want bool
	}{
		{Parsed{}, true},
		{Parsed{Args: []string{"srv/tool"}}, true},
		{Parsed{Args: []string{"echo"}, Dash: true, Command: []string{"srv"}}, false},
		{Parsed{Args: []string{"echo", "HTTPS://example.com/mcp"}}, false},
	} {
		if got := configuredWanted(c.p); got != c.want {
			t.Errorf("configuredWanted(%+v) = %v", c.p, got)
		}
	}
}

// SERVER/TOOL: the server may have "/" in its name, the tool too.
func TestResolveServerSlashTool(t *testing.T) {
	def := func(name string, disabled ...string) *config.Server {
		return &config.Server{Name: name, Type: config.TypeStdio, Command: "x", Enabled: true, DisabledTools: disabled}
	}
	set := &config.Set{Servers: []*config.Server{def("org/srv"), def("plain", "secret*")}}
	s := &Session{Set: set, M: manager.New(set, &manager.Options{DisableCache: true})}
	defer s.Close()
	for ref, want := range map[string][2]string{
		"org/srv/run":  {"org/srv", "run"},
		"plain/a/b":    {"plain", "a/b"},
		"plain/public": {"plain", "public"},
	} {
		server, tool, err := s.resolve(t.Context(), ref)
		if err != nil || server != want[0] || tool != want[1] {
			t.Errorf("resolve(%q) = %q, %q, %v", ref, server, tool, err)
		}
	}
	for _, ref := range []string{"nobody/x", "plain/", "plain/secret-stuff"} {
		if _, _, err := s.resolve(t.Context(), ref); err == nil {
			t.Errorf("resolve(%q) succeeded", ref)
		} else if code := ExitCode(t.Context(), err); code != ExitUsage {
			t.Errorf("resolve(%q): exit %d (%v)", ref, code, err)
		}
	}
}

func TestSecretsOfDefinitionsAreRedacted(t *testing.T) {
	io := &IOStreams{}
	addSecrets(io, &config.Server{
		Env:     map[string]string{"TOKEN": "env-sekrit-1"},
		Headers: map[string]string{"Authorization": "Bearer hdr-sekrit-2"},
		URL:     "https://user:pw-sekrit-3@example.com/mcp?key=q-sekrit-4",
	})
	got := io.Redact("env-sekrit-1 hdr-sekrit-2 pw-sekrit-3 q-sekrit-4")
	if got != "*** *** *** ***" {
		t.Errorf("Redact: %q", got)
	}
}

func TestPrefixWriter(t *testing.T) {
	var b bytes.Buffer
	w := &prefixWriter{w: &b, prefix: "[s] "}
	w.Write([]byte("one\ntw"))
	w.Write([]byte("o\n\x1b[31mred\n"))
	w.Write([]byte("windows\r\nbare\rcr\n")) // a CRLF line ends as any other
	if got := b.String(); got != "[s] one\n[s] two\n[s] "+Sanitize("\x1b[31mred")+"\n[s] windows\n[s] bare^Mcr\n" {
		t.Errorf("got %q", got)
	}
}

// A line too long to hold is written in parts; a part never ends inside
// a UTF-8 character, which would show as two pieces that are not UTF-8.
// The pipe's reads (here of 4097 bytes, after a lead of 0 to 3 ASCII
// bytes) put the cut at every place inside a 2-, 3- and 4-byte character.
func TestPrefixWriterKeepsCharactersWhole(t *testing.T) {
	for _, char := range []string{"é", "語", "🙂"} {
		for lead := range 4 {
			var b bytes.Buffer
			w := &prefixWriter{w: &b, prefix: "[s] "}
			text := strings.Repeat("x", lead) + strings.Repeat(char, 9000/len(char)) + "\n"
			for rest := text; rest != ""; {
				n := min(4097, len(rest))
				w.Write([]byte(rest[:n]))
				rest = rest[n:]
			}
			got := b.String()
			if !utf8.ValidString(got) || strings.Contains(got, `\x`) {
				t.Fatalf("%q after %d bytes: a character was cut: %q", char, lead, got)
			}
			var joined strings.Builder
			for line := range strings.Lines(got) {
				part, ok := strings.CutPrefix(line, "[s] ")
				if !ok {
					t.Fatalf("line without its prefix: %q", line)
				}
				joined.WriteString(strings.TrimSuffix(part, "\n"))
			}
			if joined.String() != strings.TrimSuffix(text, "\n") {
				t.Errorf("%q after %d bytes: the parts do not make the line", char, lead)
			}
		}
	}
}

// With --verbose, a configured server's last stderr line is shown even
// when no newline ends it (a server whose last words lack one): it is
// written, after the server's prefix, once the command is done with the
// server.
func TestConfiguredStderrLastLineWithoutNewline(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mcp.json")
	def, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"talks": map[string]any{
		"command": "sh", "args": []string{"-c", `printf 'first line\nlast words' >&2; exec "$0" "$1"`, os.Args[0], ServeName}}}})
	write(t, file, string(def))
	r := run(t, "tools", "--verbose", "--config", file).wantCode(t, ExitOK)
	if !strings.Contains(r.err, "[talks] first line\n") || !strings.Contains(r.err, "[talks] last words\n") {
		t.Errorf("stderr %q, want both of the server's lines, prefixed", r.err)
	}
}

// A server started again replaces its older stderr writer, after that
// one's unfinished line is written: a command that runs for days over a
// server that keeps restarting holds one writer for it, not one a start.
func TestHeldLinesKeepOneWriterAServer(t *testing.T) {
	var b bytes.Buffer
	h := &heldLines{}
	first := h.add(&prefixWriter{w: &b, prefix: "[s] "})
	first.Write([]byte("dying wo"))
	h.add(&prefixWriter{w: &b, prefix: "[other] "})
	for range 100 {
		h.add(&prefixWriter{w: &b, prefix: "[s] "}).Write([]byte("x"))
	}
	if len(h.ws) != 2 {
		t.Errorf("%d writers held, want one a server (2)", len(h.ws))
	}
	h.flush()
	if got, want := b.String(), "[s] dying wo\n"+strings.Repeat("[s] x\n", 100); got != want {
		t.Errorf("written %q, want %q", got, want)
	}
}
