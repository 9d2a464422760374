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
	s.expect("mcpwire shell on 2 configured servers (demo, spare)")
	s.expect(shellPrompt)

	s.send("servers", keyEnter)
	s.expect("NAME")
	s.expect("demo")
	s.expect("connected")
	s.expect("spare")
	s.expect("connected")
	s.expect(shellPrompt)

	s.send("tools", keyEnter)
	s.expect("mcp__demo__add")
	s.expect("mcp__spare__add")
	s.expect(shellPrompt)
	s.send("call mcp__spare__ec", keyTab)
	s.expect(shellPrompt + "call mcp__spare__echo ")
	s.send("message=from-spare", keyEnter)
	s.expect("from-spare\n")
	s.expect(shellPrompt) // drawn again once the call is done: keys typed before are not the prompt's

	// Nothing is in use yet: a command on one server says how to pick.
	s.send("info", keyEnter)
	s.expect("no server in use: pick one with use SERVER")
	s.expect(shellPrompt)

	s.send("use d", keyTab)
	s.expect(shellPrompt + "use demo ")
	s.send(keyEnter)
	s.expect(`using server "demo"`)
	s.expect("mcpwire demo> ")
	s.send("call add-tool name=fresh", keyEnter)
	s.expect("[demo] notification: tools/list_changed")
	s.expect("mcpwire demo> ")
	s.send("call fre", keyTab)
	s.expect("mcpwire demo> call fresh ")
	s.send("message=new", keyEnter)
	s.expect("new\n")
	s.expect("mcpwire demo> ")

	// A form, asked inside the shell and naming the server: filled in.
	s.send("call elicit message=Who-are-you?", keyEnter)
	s.expect(`server "demo" asks:`)
	s.expect("Who-are-you?")
	s.expect("fill in the form and send it")
	s.send(keyEnter)
	s.field("Name (required)", "-ada", keyEnter)
	s.field("count", keyEnter)
	s.field("ratio", keyEnter)
	s.field("color", keyEnter)
	s.field("ok", "n")
	s.expect(`"name":"mcptest-ada"`)
	s.expect("mcpwire demo> ")

	// Declined, then cancelled with Ctrl-C: the call ends with the
	// server's answer to that, and the shell stays.
	s.send("call elicit message=Again?", keyEnter)
	s.expect("fill in the form and send it")
	s.send(keyDown, keyEnter)
	s.expect(`{"action":"decline"}`)
	s.expect("mcpwire demo> ")
	s.send("call elicit message=Once-more?", keyEnter)
	s.expect("fill in the form and send it")
	s.send(keyCtrlC)
	s.expect(`{"action":"cancel"}`)
	s.expect("mcpwire demo> ")
	s.send("call add a=2 b=40", keyEnter)
	s.expect("mcpwire demo> call add a=2 b=40\n")
	s.expect("42\n")
	s.expect("mcpwire demo> ")

	// Sampling: the reply is written in $EDITOR.
	s.send("call sample prompt=Name-a-colour", keyEnter)
	s.expect(`server "demo" asks for a model's reply (sampling)`)
	s.expect("user: Name-a-colour")
	s.expect("write the reply in " + editor)
	s.send(keyEnter)
	s.expect("Teal, from the editor.")
	s.expect("mcpwire demo> ")

	s.send("use", keyEnter)
	s.expect("using every configured server")
	s.expect(shellPrompt)
	s.send(keyCtrlD)
	if code := s.wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.screen()))
	}
}

// A SERVER argument (or --server) starts the shell on that configured
// server, in use from the first prompt; a name that is none is refused
// with the nearest one.
func TestPtyShellConfiguredServer(t *testing.T) {
	t.Parallel()
	file := writeDemoConfig(t, "demo", "spare")
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, "shell", "--config", file, "spare")
	s.expect(`mcpwire shell on the configured servers, using "spare"`)
	s.send("info", keyEnter)
	s.expect("mcpwire spare> info\n")
	s.expect("mcptest")
	s.expect("mcpwire spare> ")
	s.send("exit", keyEnter)
	if code := s.wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.screen()))
	}

	s = startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, "shell", "--config", file, "spar")
	s.expect(`no configured server is named "spar"`)
	if code := s.wait(); code != ExitUsage {
		t.Errorf("exit %d, want %d; screen:\n%s", code, ExitUsage, screenTail(s.screen()))
	}
}
