package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// writeDemoConfig writes a config file whose servers, named names, are
// each the example server over stdio.
func writeDemoConfig(t *testing.T, names ...string) string {
	t.Helper()
	doc := `{"mcpServers": {`
	for i, name := range names {
		if i > 0 {
			doc += ", "
		}
		doc += strconv.Quote(name) + `: {"command": ` + strconv.Quote(os.Args[0]) + `, "args": ["` + ServeName + `"]}`
	}
	file := filepath.Join(t.TempDir(), "mcpwire.json")
	if err := os.WriteFile(file, []byte(doc+"}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// The shell on the configured servers: servers shows their status, tools
// lists every server's tools under their model-facing names and call
// takes one, use (Tab completes the server's name) picks a server and the
// prompt shows it, a notification prints under its server's name, and a
// server's form and sampling request are asked inside the shell, naming
// the server: accepted, declined, cancelled with Ctrl-C (the shell goes
// on), and a reply written in $EDITOR.
func TestPtyShellConfigured(t *testing.T) {
	t.Parallel()
	file := writeDemoConfig(t, "demo", "spare")
	editor := writeScript(t, t.TempDir(), "editor", `{ printf 'Teal, from the editor.\n'; cat "$1"; } > "$1.new" && mv "$1.new" "$1"`+"\n")
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "EDITOR=" + editor, "VISUAL="}, "shell", "--config", file)
	s.Expect("mcpwire shell on 2 configured servers (demo, spare)")
	s.Prompt(shellPrompt)

	s.Send("servers", keyEnter)
	s.Expect("NAME")
	s.Expect("demo")
	s.Expect("connected")
	s.Expect("spare")
	s.Expect("connected")
	s.Prompt(shellPrompt)

	s.Send("tools", keyEnter)
	s.Expect("mcp__demo__add")
	s.Expect("mcp__spare__add")
	s.Prompt(shellPrompt)
	s.Send("call mcp__spare__ec", keyTab)
	s.Expect(shellPrompt + "call mcp__spare__echo ")
	s.Send("message=from-spare", keyEnter)
	s.Expect("from-spare\n")
	s.Prompt(shellPrompt)

	// Nothing is in use yet: a command on one server says how to pick.
	s.Send("info", keyEnter)
	s.Expect("no server in use: pick one with use SERVER")
	s.Prompt(shellPrompt)

	s.Send("use d", keyTab)
	s.Expect(shellPrompt + "use demo ")
	s.Send(keyEnter)
	s.Expect(`using server "demo"`)
	s.Prompt("mcpwire demo> ")
	s.Send("call add-tool name=fresh", keyEnter)
	s.Expect("[demo] notification: tools/list_changed")
	s.Prompt("mcpwire demo> ")
	s.Send("call fre", keyTab)
	s.Expect("mcpwire demo> call fresh ")
	s.Send("message=new", keyEnter)
	s.Expect("new\n")
	s.Prompt("mcpwire demo> ")

	// A form, asked inside the shell and naming the server: filled in.
	s.Send("call elicit message=Who-are-you?", keyEnter)
	s.Expect(`server "demo" asks:`)
	s.Expect("Who-are-you?")
	s.Expect("fill in the form and send it")
	s.Send(keyEnter)
	s.Field("Name (required)", "-ada", keyEnter)
	s.Field("count", keyEnter)
	s.Field("ratio", keyEnter)
	s.Field("color", keyEnter)
	s.Field("ok", "n")
	s.Expect(`"name":"mcptest-ada"`)
	s.Prompt("mcpwire demo> ")

	// Declined, then cancelled with Ctrl-C: the call ends with the
	// server's answer to that, and the shell stays.
	s.Send("call elicit message=Again?", keyEnter)
	s.Expect("fill in the form and send it")
	s.Send(keyDown, keyEnter)
	s.Expect(`{"action":"decline"}`)
	s.Prompt("mcpwire demo> ")
	s.Send("call elicit message=Once-more?", keyEnter)
	s.Expect("fill in the form and send it")
	s.Send(keyCtrlC)
	s.Expect(`{"action":"cancel"}`)
	s.Prompt("mcpwire demo> ")
	s.Send("call add a=2 b=40", keyEnter)
	s.Expect("mcpwire demo> call add a=2 b=40\n")
	s.Expect("42\n")
	s.Prompt("mcpwire demo> ")

	// Sampling: the reply is written in $EDITOR.
	s.Send("call sample prompt=Name-a-colour", keyEnter)
	s.Expect(`server "demo" asks for a model's reply (sampling)`)
	s.Expect("user: Name-a-colour")
	s.Expect("write the reply in " + editor)
	s.Send(keyEnter)
	s.Expect("Teal, from the editor.")
	s.Prompt("mcpwire demo> ")

	s.Send("use", keyEnter)
	s.Expect("using every configured server")
	s.Prompt(shellPrompt)
	s.Send(keyCtrlD)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
}

// A SERVER argument (or --server) starts the shell on that configured
// server, in use from the first prompt; a name that is none is refused
// with the nearest one.
func TestPtyShellConfiguredServer(t *testing.T) {
	t.Parallel()
	file := writeDemoConfig(t, "demo", "spare")
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, "shell", "--config", file, "spare")
	s.Expect(`mcpwire shell on the configured servers, using "spare"`)
	s.Prompt("mcpwire spare> ")
	s.Send("info", keyEnter)
	s.Expect("mcpwire spare> info\n")
	s.Expect("mcptest")
	s.Prompt("mcpwire spare> ")
	s.Send("exit", keyEnter)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}

	s = startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, "shell", "--config", file, "spar")
	s.Expect(`no configured server is named "spar"`)
	if code := s.Wait(); code != ExitUsage {
		t.Errorf("exit %d, want %d; screen:\n%s", code, ExitUsage, screenTail(s.Screen()))
	}
}
