package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/ptytest"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A shell session on the example server over HTTP, in both eras: Tab
// completes a tool name, a call shows its progress live, Ctrl-C cancels a
// slow call (the server is sent notifications/cancelled) and the shell
// stays, and a tools/list_changed that arrives while a line is being typed
// prints above it without breaking it; the new tool then completes.
func TestPtyShell(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"2025-11-25", "auto"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			srv := mcptest.NewDefault(nil)
			hs := mcptest.NewHTTPServer(t, srv, nil)
			state := t.TempDir()
			s := startPty(t, []string{"XDG_STATE_HOME=" + state}, "shell", "--protocol", era, hs.URL)
			s.Expect("mcpwire shell on")
			s.Prompt(shellPrompt)

			// Tab completes "ec" to the tool echo, then its argument.
			s.Send("call ec", keyTab)
			s.Expect(shellPrompt + "call echo ")
			s.Send("mes", keyTab)
			s.Expect(shellPrompt + "call echo message=")
			s.Send("hi-there", keyEnter)
			s.Expect(shellPrompt + "call echo message=hi-there\n")
			s.Expect("hi-there\n") // the result, under the line

			// Progress is a live line, and Ctrl-C cancels the call in
			// flight; the shell stays.
			s.Send("call slow steps=100000 delay_ms=5", keyEnter)
			s.Expect("slow [")
			s.Expect("/100000 (0%) step ")
			s.Send(keyCtrlC)
			s.Expect("mcpwire: cancelled")
			s.Send("call add a=2 b=40", keyEnter)
			s.Expect(shellPrompt + "call add a=2 b=40\n")
			s.Expect("42\n")
			// Before 2026-07-28 the cancel is notifications/cancelled
			// (a POST of its own, which may land after the next call);
			// in it, closing the call's reply stream.
			if era != "auto" {
				waitForCancelled(t, hs)
			}

			// A list_changed while typing.
			s.Send("call ad")
			s.Expect(shellPrompt + "call ad")
			srv.AddTool(mcptest.Tool{Name: "added-live", Description: "Added while typing."},
				func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
					return mcptest.TextResult("the live tool ran"), nil
				})
			s.Expect("notification: tools/list_changed")
			s.Expect(shellPrompt + "call ad") // the typed line is drawn again, whole
			s.Send("ded", keyTab)
			s.Expect(shellPrompt + "call added-live ")
			s.Send(keyEnter)
			s.Expect("the live tool ran")
			s.Prompt(shellPrompt) // Tab completes at the prompt, not while a call runs

			// A resource URI completes as far as the two agree, then
			// whole; read is the one-shot command on this connection.
			s.Send("read mcp", keyTab)
			s.Expect(shellPrompt + "read mcptest://static/")
			s.Send("h", keyTab)
			s.Expect(shellPrompt + "read mcptest://static/hello.txt ")
			s.Send(keyEnter)
			s.Expect(mcptest.HelloText)
			s.Prompt(shellPrompt)

			s.Send(keyCtrlD)
			if code := s.Wait(); code != 0 {
				t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
			}
			hist, err := os.ReadFile(filepath.Join(state, "mcpwire", "shell_history"))
			if err != nil || !strings.Contains(string(hist), "call echo message=hi-there\ncall slow steps=100000 delay_ms=5\n") {
				t.Errorf("history %q, %v", hist, err)
			}
		})
	}
}

// With --json each result is one JSON object, as the one-shot command's.
func TestPtyShellJSON(t *testing.T) {
	t.Parallel()
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, append([]string{"shell", "--json"}, server()...)...)
	s.Prompt(shellPrompt)
	s.Send("call add a=2 b=40", keyEnter)
	s.Expect(`"structuredContent": {`)
	s.Expect(`"sum": 42`)
	s.Send("exit", keyEnter)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
}

// Without a terminal the shell is a usage error, not a hang.
func TestShellNeedsTerminal(t *testing.T) {
	t.Parallel()
	r := run(t, append([]string{"shell"}, server()...)...)
	if r.code != ExitUsage || !strings.Contains(r.err, "mcpwire: the shell needs a terminal") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
}

// Keys typed while a call runs are not lost: once the call is done the
// prompt takes them in order, as a shell takes type-ahead, Tab (which
// completes) and Ctrl-D (which leaves, after the line typed before it
// has run) included.
func TestPtyShellTypeAhead(t *testing.T) {
	t.Parallel()
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, append([]string{"shell"}, server()...)...)
	s.Prompt(shellPrompt)
	s.Send("call slow steps=8 delay_ms=250", keyEnter)
	s.Expect("slow [") // the call runs
	s.Send("call ec", keyTab, "message=typed-ahead", keyEnter, keyCtrlD)
	s.Expect(shellPrompt + "call echo message=typed-ahead\n")
	s.Expect("typed-ahead\n")
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
}

// waitForCancelled waits until hs has received a notifications/cancelled.
func waitForCancelled(t *testing.T, hs *mcptest.HTTPServer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ptytest.Deadline)
	defer cancel()
	for n := 1; ; n++ {
		reqs, err := hs.Log().WaitRequests(ctx, n)
		if err != nil {
			t.Fatalf("no notifications/cancelled reached the server: %v", err)
		}
		if strings.Contains(string(reqs[n-1].Body), `"notifications/cancelled"`) {
			return
		}
	}
}
