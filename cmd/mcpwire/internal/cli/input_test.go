package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// inputServers are the example server in both eras, over stdio and HTTP:
// the flags that answer a server's questions must answer the older eras'
// requests (elicitation/create, roots/list) and the stateless era's
// input_required results alike. The example server speaks both eras, so
// each case pins one: left to negotiate, every case would be the modern one.
func inputServers(t *testing.T) map[string][]string {
	hs := mcptest.NewHTTPServer(t, withURLElicitTool(mcptest.NewDefault(nil)), nil)
	return map[string][]string{
		"stdio legacy": args(a("--protocol", "2025-11-25"), server()),
		"stdio modern": args(a("--protocol", "2026-07-28"), server()),
		"http legacy":  a("--protocol", "2025-11-25", hs.URL),
		"http modern":  a("--protocol", "2026-07-28", hs.URL),
	}
}

// withURLElicitTool adds a tool that sends the user to a URL (URL-mode
// elicitation), which the example server does not have.
func withURLElicitTool(s *mcptest.Server) *mcptest.Server {
	s.AddTool(mcptest.Tool{Name: "elicit-url", Description: "Asks the client to open a URL."},
		func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
			raw, err := req.Session.Elicit(ctx, map[string]any{"mode": "url", "message": "Sign in to the \x1b[31mexample\x1b[0m",
				"url": "https://example.com/consent?x=1", "elicitationId": "e-1"})
			if err != nil {
				return mcptest.ErrorResult("elicitation/create failed: " + err.Error()), nil
			}
			return mcptest.TextResult(string(raw)), nil
		})
	return s
}

// jsonOut decodes a tool's text output as JSON.
func jsonOut(t *testing.T, out string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &v); err != nil {
		t.Fatalf("output %q is not JSON: %v", out, err)
	}
	return v
}

func TestElicitFlagsBothEras(t *testing.T) {
	defaults := map[string]any{"name": "mcptest", "count": 3.0, "ratio": 0.5, "color": "green", "ok": true}
	for name, target := range inputServers(t) {
		t.Run(name, func(t *testing.T) {
			modern := strings.Contains(name, "modern")
			call := func(flags ...string) []string { return args(a("call", "elicit"), flags, target) }

			// No flag: declined, with a note naming the question and the
			// fields, never a wait for an answer.
			r := run(t, call()...).wantCode(t, 0)
			if got := jsonOut(t, r.out); got["action"] != "decline" || got["content"] != nil {
				t.Errorf("no flag: %v", got)
			}
			for _, want := range []string{`the server asks: "Please fill in the mcptest form." (fields: name, count, ratio, color, ok)`, "--elicit defaults"} {
				if !strings.Contains(r.err, want) {
					t.Errorf("no flag: stderr lacks %q:\n%s", want, r.err)
				}
			}

			r = run(t, call("--elicit", "defaults")...).wantCode(t, 0)
			if got := jsonOut(t, r.out); got["action"] != "accept" || !equalJSON(got["content"], defaults) {
				t.Errorf("--elicit defaults: %v", got)
			}
			if r.err != "" {
				t.Errorf("--elicit defaults: stderr %q", r.err)
			}
			for _, action := range []string{"decline", "cancel"} {
				r = run(t, call("--elicit", action)...).wantCode(t, 0)
				if got := jsonOut(t, r.out); got["action"] != action || got["content"] != nil || r.err != "" {
					t.Errorf("--elicit %s: %v, stderr %q", action, got, r.err)
				}
			}

			r = run(t, call("--elicit-json", `{"name":"x","count":1}`)...).wantCode(t, 0)
			if got := jsonOut(t, r.out); got["action"] != "accept" || !equalJSON(got["content"], map[string]any{"name": "x", "count": 1.0}) {
				t.Errorf("--elicit-json: %v", got)
			}
			r = run(t, call("--elicit", "defaults", "--elicit-json", `{"count":7}`)...).wantCode(t, 0)
			want := map[string]any{"name": "mcptest", "count": 7.0, "ratio": 0.5, "color": "green", "ok": true}
			if got := jsonOut(t, r.out); !equalJSON(got["content"], want) {
				t.Errorf("--elicit defaults --elicit-json: %v", got)
			}

			// An answer that breaks the form's schema is never sent: the
			// stateless era fails the call as a usage error; the older eras
			// tell the server, whose tool then fails.
			const secretish = "hunter2-password"
			code := ExitToolError
			if modern {
				code = ExitUsage
			}
			r = run(t, call("--elicit-json", `{"name":"`+secretish+`","count":"many"}`)...).wantCode(t, code)
			if !strings.Contains(r.err, `does not fit it: "count" must be an integer, not a string`) {
				t.Errorf("misfit: stderr %q", r.err)
			}
			if strings.Contains(r.out+r.err, secretish) {
				t.Errorf("misfit: the answer's values are shown:\n%s\n%s", r.out, r.err)
			}

			// URL mode (a tool of the HTTP server only): the URL is shown,
			// escape sequences taken out, and the elicitation declined (or
			// cancelled).
			if strings.HasPrefix(name, "stdio") {
				return
			}
			for _, flags := range [][]string{nil, {"--elicit", "defaults"}, {"--elicit", "cancel"}} {
				r = run(t, args(a("call", "elicit-url"), flags, target)...).wantCode(t, 0)
				wantAction := "decline"
				if len(flags) > 0 && flags[1] == "cancel" {
					wantAction = "cancel"
				}
				if got := jsonOut(t, r.out); got["action"] != wantAction {
					t.Errorf("url %q: %v", flags, got)
				}
				if !strings.Contains(r.err, "https://example.com/consent?x=1") || !strings.Contains(r.err, "asks you to open a URL") || strings.Contains(r.err, "\x1b") {
					t.Errorf("url %q: stderr %q", flags, r.err)
				}
			}
		})
	}
}

// equalJSON compares two values as JSON.
func equalJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// Roots are offered only with --root: a server given roots replaces the
// directories it was started with, so none are offered by default, and a
// server that asks anyway is refused.
func TestRootFlagBothEras(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir1, dir2 := t.TempDir(), t.TempDir()
	for name, target := range inputServers(t) {
		t.Run(name, func(t *testing.T) {
			r := run(t, args(a("call", "roots"), target)...)
			if strings.Contains(name, "modern") {
				r.wantCode(t, ExitProtocol)
				if !strings.Contains(r.err, `"roots"`) || !strings.Contains(r.err, "(offer roots with --root DIR)") {
					t.Errorf("no --root: stderr %q", r.err)
				}
			} else {
				r.wantCode(t, ExitToolError)
				if !strings.Contains(r.out, "method not found") {
					t.Errorf("no --root: stdout %q", r.out)
				}
			}
			r = run(t, args(a("call", "roots", "--root", "."), target)...).wantCode(t, 0)
			want := `{"roots":[{"uri":"file://` + filepath.ToSlash(cwd) + `","name":"` + filepath.Base(cwd) + `"}]}`
			if strings.TrimSpace(r.out) != want {
				t.Errorf("--root .: %s, want %s", r.out, want)
			}
			r = run(t, args(a("call", "roots", "--root", dir1, "--root", dir2), target)...).wantCode(t, 0)
			var got struct{ Roots []struct{ URI, Name string } }
			if err := json.Unmarshal([]byte(r.out), &got); err != nil || len(got.Roots) != 2 ||
				got.Roots[0].URI != "file://"+filepath.ToSlash(dir1) || got.Roots[1].URI != "file://"+filepath.ToSlash(dir2) || got.Roots[1].Name != filepath.Base(dir2) {
				t.Errorf("--root twice: %s (%v)", r.out, err)
			}
		})
	}
}

// Sampling is not offered: a server that asks anyway is refused, and in
// the stateless era the error says why.
func TestSamplingRefusedBothEras(t *testing.T) {
	for name, target := range inputServers(t) {
		t.Run(name, func(t *testing.T) {
			r := run(t, args(a("call", "sample", "--arg", "prompt=hi"), target)...)
			if strings.Contains(name, "modern") {
				r.wantCode(t, ExitProtocol)
				if !strings.Contains(r.err, `"sampling"`) || !strings.Contains(r.err, "mcpwire has no model to answer sampling with") {
					t.Errorf("stderr %q", r.err)
				}
				return
			}
			r.wantCode(t, ExitToolError)
			if !strings.Contains(r.out, "method not found") {
				t.Errorf("stdout %q", r.out)
			}
		})
	}
}

func TestInputFlagErrors(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "f")
	write(t, file, "x")
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{a("--elicit", "yes"), `--elicit must be defaults, decline or cancel, not "yes"`},
		{a("--elicit-json", `[1]`), "--elicit-json must be one JSON object"},
		{a("--elicit-json", `{"a":1} {}`), "--elicit-json must be one JSON object"},
		{a("--elicit-json", `{"a":1}`, "--elicit", "decline"), "cannot go with --elicit decline"},
		{a("--root", file), "is not a directory"},
		{a("--root", t.TempDir(), "--root", filepath.Join(file, "nope")), "--root #2: "},
	} {
		r := run(t, args(a("call", "echo", "--arg", "message=x"), c.flags, server())...).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, c.want) {
			t.Errorf("%q: stderr %q, want %q", c.flags, r.err, c.want)
		}
	}
}

// Configured servers get the same answers, and the note names the server.
func TestElicitConfiguredServer(t *testing.T) {
	cfg := filepath.Join(project(t), "input.json")
	write(t, cfg, `{"mcpServers": {"ex": {"command": "`+os.Args[0]+`", "args": ["`+ServeName+`"]}}}`)
	r := run(t, "call", "ex/elicit", "--config", cfg).wantCode(t, 0)
	if !strings.Contains(r.err, `server "ex" asks: "Please fill in the mcptest form."`) {
		t.Errorf("stderr %q", r.err)
	}
	r = run(t, "call", "ex/elicit", "--config", cfg, "--elicit", "defaults").wantCode(t, 0)
	if got := jsonOut(t, r.out); got["action"] != "accept" {
		t.Errorf("--elicit defaults: %v", got)
	}
	dir := t.TempDir()
	r = run(t, "call", "ex/roots", "--config", cfg, "--root", dir).wantCode(t, 0)
	if !strings.Contains(r.out, `"file://`+filepath.ToSlash(dir)+`"`) {
		t.Errorf("--root: %s", r.out)
	}
}
