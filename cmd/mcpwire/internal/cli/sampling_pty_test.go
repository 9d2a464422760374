package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes an executable shell script into dir.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// server-everything's sampling request is shown whole, and the person
// writes the reply in $EDITOR (here a script that writes it above the
// marker line, as a person would).
func TestPtySamplingEditor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	editor := writeScript(t, dir, "editor", `{ printf 'The editor wrote this reply.\n'; cat "$1"; } > "$1.new" && mv "$1.new" "$1"`+"\n")
	s := startPty(t, []string{"EDITOR=" + editor, "VISUAL="},
		append([]string{"call", "trigger-sampling-request", "--arg", "prompt=Name a colour", "--arg", "maxTokens=64"}, everythingTarget(t)...)...)
	s.Expect("the server asks for a model's reply (sampling)")
	s.Expect("System prompt: You are a helpful test server.")
	s.Expect("user: Resource trigger-sampling-request context: Name a colour")
	s.Expect("Max tokens: 64; temperature 0.7")
	s.Expect("write the reply in " + editor)
	s.Send(keyEnter)
	s.Expect("LLM sampling result:")
	s.Expect(`"model": "mcpwire-user"`)
	s.Expect(`"text": "The editor wrote this reply."`)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
	if strings.Contains(s.Written(), replyMarker) {
		t.Errorf("the marker and what follows it went back to the server:\n%s", screenTail(s.Written()))
	}
}

// Declining a sampling request at the terminal sends the user-rejected
// error, and the call goes on to the server's answer.
func TestPtySamplingDecline(t *testing.T) {
	t.Parallel()
	s := startPty(t, nil, append([]string{"call", "sample", "--arg", "prompt=Name a colour"}, server()...)...)
	s.Expect("user: Name a colour")
	s.Send(keyDown, keyEnter)
	s.Expect("declined the server's sampling request")
	s.Expect("the user rejected the sampling request")
	s.Wait()
}

// --sampling-cmd gets the request as JSON on stdin and its printed result
// goes back, in a script (no terminal) and in both eras; its failures are
// reported.
func TestSamplingCmd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	got := filepath.Join(dir, "request.json")
	good := writeScript(t, dir, "good", `cat > "`+got+`"; printf '{"content":{"type":"text","text":"blue"},"model":"script"}'`+"\n")
	failing := writeScript(t, dir, "failing", `echo "no model here" >&2; exit 3`+"\n")
	garbage := writeScript(t, dir, "garbage", `echo "not json"`+"\n")
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		r := run(t, append([]string{"call", "sample", "--arg", "prompt=Name a colour", "--protocol", era, "--sampling-cmd", good}, server()...)...)
		r.wantCode(t, 0)
		if r.out != "blue\n" {
			t.Errorf("%s: stdout %q, want the command's reply", era, r.out)
		}
		if b, err := os.ReadFile(got); err != nil || !strings.Contains(string(b), `"text":"Name a colour"`) || !strings.Contains(string(b), `"maxTokens":100`) {
			t.Errorf("%s: the command read %s, %v; want the request", era, b, err)
		}
	}
	for _, c := range []struct{ cmd, want string }{
		{failing, "--sampling-cmd: the command failed (exit status 3): no model here"},
		{garbage, "--sampling-cmd: the command printed no result JSON object"},
	} {
		r := run(t, append([]string{"call", "sample", "--arg", "prompt=x", "--sampling-cmd", c.cmd}, server()...)...)
		if !strings.Contains(r.err, c.want) {
			t.Errorf("%s: stderr %q, want %q", filepath.Base(c.cmd), r.err, c.want)
		}
	}
	r := run(t, append([]string{"call", "sample", "--arg", "prompt=x", "--confirm-sampling"}, server()...)...)
	if r.code != ExitUsage || !strings.Contains(r.err, "give --sampling-cmd CMD too") {
		t.Errorf("--confirm-sampling alone: exit %d, stderr %q", r.code, r.err)
	}
}

// With --confirm-sampling the command's reply is shown at the terminal
// and goes back only when approved.
func TestPtyConfirmSampling(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := writeScript(t, dir, "reply", `cat >/dev/null; printf '{"content":{"type":"text","text":"a reply to approve"},"model":"script"}'`+"\n")
	for _, c := range []struct {
		keys []string
		want string
	}{
		{[]string{keyEnter}, "a reply to approve"},
		{[]string{keyDown, keyEnter}, "the user rejected the sampling request"},
	} {
		s := startPty(t, nil, append([]string{"call", "sample", "--arg", "prompt=Say it", "--sampling-cmd", cmd, "--confirm-sampling"}, server()...)...)
		s.Expect("user: Say it")
		s.Expect("The reply of --sampling-cmd (model script):")
		s.Expect("send this reply")
		s.Send(c.keys...)
		s.Expect(c.want)
		s.Wait()
	}
}
