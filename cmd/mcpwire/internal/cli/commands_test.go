package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

func TestResources(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("resources"), server())...).wantCode(t, 0)
	golden(t, "resources.golden", r.out)
	r = run(t, args(a("resources", "--json"), server())...).wantCode(t, 0)
	golden(t, "resources.json.golden", r.out)
}

func TestReadText(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("read", mcptest.HelloURI), server())...).wantCode(t, 0)
	want := "[resource " + mcptest.HelloURI + ", text/plain]\n" + mcptest.HelloText + "\n"
	if r.out != want {
		t.Errorf("stdout = %q, want %q", r.out, want)
	}
}

// --output writes the one content as raw bytes: text as it is, a blob
// decoded; stdout stays empty.
func TestReadOutputFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for uri, want := range map[string]string{mcptest.HelloURI: mcptest.HelloText} {
		file := filepath.Join(dir, "text")
		r := run(t, args(a("read", uri, "--output", file), server())...).wantCode(t, 0)
		got, err := os.ReadFile(file)
		if err != nil || string(got) != want || r.out != "" {
			t.Errorf("read %s --output: file %q (%v), stdout %q; want %q", uri, got, err, r.out, want)
		}
	}
	file := filepath.Join(dir, "blob")
	run(t, args(a("read", mcptest.BlobURI, "--output", file), server())...).wantCode(t, 0)
	r := run(t, args(a("read", "--json", mcptest.BlobURI), server())...).wantCode(t, 0)
	var doc struct{ Contents []struct{ Blob string } }
	got, err := os.ReadFile(file)
	if json.Unmarshal([]byte(r.out), &doc) != nil || len(doc.Contents) != 1 || err != nil || base64.StdEncoding.EncodeToString(got) != doc.Contents[0].Blob {
		t.Errorf("blob file %x (%v), the server's %s", got, err, r.out)
	}
}

func TestReadBlobAndJSON(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("read", mcptest.BlobURI), server())...).wantCode(t, 0)
	want := "[resource " + mcptest.BlobURI + ", application/octet-stream, 10 bytes]\n"
	if r.out != want {
		t.Errorf("stdout = %q, want %q", r.out, want)
	}
	r = run(t, args(a("read", "--json", mcptest.BlobURI), server())...).wantCode(t, 0)
	golden(t, "read-blob.json.golden", r.out)
}

func TestReadTemplate(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("read", "mcptest://item/7"), server())...).wantCode(t, 0)
	if r.out != "[resource mcptest://item/7, text/plain]\nitem 7\n" {
		t.Errorf("stdout = %q", r.out)
	}
}

func TestReadUnknownIsProtocolError(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("read", "mcptest://nope"), server())...).wantCode(t, ExitProtocol)
	if !strings.HasPrefix(r.err, `mcpwire: reading "mcptest://nope": `) {
		t.Errorf("stderr = %q", r.err)
	}
}

func TestPrompts(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("prompts"), server())...).wantCode(t, 0)
	golden(t, "prompts.golden", r.out)
	r = run(t, args(a("prompts", "--json"), server())...).wantCode(t, 0)
	golden(t, "prompts.json.golden", r.out)
}

func TestPrompt(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("prompt", "summarize", "--arg", "topic=MCP", "--arg", "style=42"), server())...).wantCode(t, 0)
	// Prompt arguments are strings: "42" stays "42".
	want := "# Summarize MCP\n\nuser:\nSummarize MCP in a 42 style.\n"
	if r.out != want {
		t.Errorf("stdout = %q, want %q", r.out, want)
	}
	r = run(t, args(a("prompt", "greeting", "--json"), pinModern, server())...).wantCode(t, 0)
	golden(t, "prompt-greeting.json.golden", r.out)
}

func TestInfo(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("info"), pinModern, server())...).wantCode(t, 0)
	golden(t, "info.golden", r.out)
	r = run(t, args(a("info", "--json"), pinModern, server())...).wantCode(t, 0)
	golden(t, "info.json.golden", r.out)
}

func TestPing(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("ping"), server())...).wantCode(t, 0)
	if !regexp.MustCompile(`^ok: mcptest 1\.0\.0 answered ping in [0-9.]+[µmn]?s\n$`).MatchString(r.out) {
		t.Errorf("stdout = %q", r.out)
	}
	r = run(t, args(a("ping", "--json"), server())...).wantCode(t, 0)
	var v struct {
		OK     bool
		Server struct{ Name string }
		PingMs *float64
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil || !v.OK || v.Server.Name != "mcptest" || v.PingMs == nil {
		t.Errorf("--json = %q (%v)", r.out, err)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{{"version"}, {"--version"}} {
		r := run(t, argv...).wantCode(t, 0)
		// Both eras: the stateless revision and the initialize ones.
		if !strings.HasPrefix(r.out, "mcpwire ") || !strings.Contains(r.out, "2025-11-25") || !strings.Contains(r.out, "2026-07-28") {
			t.Errorf("%q: stdout = %q", argv, r.out)
		}
	}
	r := run(t, "version", "--json").wantCode(t, 0)
	var v struct {
		Version          string
		ProtocolVersions []string
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil || v.Version == "" || !slices.Contains(v.ProtocolVersions, "2026-07-28") || !slices.Contains(v.ProtocolVersions, "2024-11-05") {
		t.Errorf("--json = %q (%v)", r.out, err)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	r := run(t, "help").wantCode(t, 0)
	golden(t, "help.golden", r.out)
	if strings.Contains(r.out, "__serve") {
		t.Error("help lists the hidden serve command")
	}
	for _, argv := range [][]string{{"--help"}, {"-h"}} {
		if got := run(t, argv...).wantCode(t, 0).out; got != r.out {
			t.Errorf("%q prints something else than help", argv)
		}
	}
	// No command: the same text, on stderr, as a usage error.
	r2 := run(t).wantCode(t, ExitUsage)
	if !strings.HasPrefix(r2.err, r.out) {
		t.Errorf("bare mcpwire: stderr = %q", r2.err)
	}
}

func TestCommandHelp(t *testing.T) {
	t.Parallel()
	r := run(t, "help", "call").wantCode(t, 0)
	golden(t, "help-call.golden", r.out)
	for _, argv := range [][]string{{"call", "-h"}, {"call", "echo", "--help", "--", "srv"}} {
		if got := run(t, argv...).wantCode(t, 0).out; got != r.out {
			t.Errorf("%q: help differs from 'help call':\n%s", argv, got)
		}
	}
	// Every listed command has help that names its flags.
	for _, name := range []string{"tools", "call", "resources", "read", "prompts", "prompt", "info", "ping", "demo", "version"} {
		out := run(t, name, "-h").wantCode(t, 0).out
		if !strings.HasPrefix(out, "Usage: mcpwire "+name) || !strings.Contains(out, "--") {
			t.Errorf("%s -h = %q", name, out)
		}
	}
}
