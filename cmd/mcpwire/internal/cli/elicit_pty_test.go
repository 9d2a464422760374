package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// everythingTarget is server-everything over stdio as a target.
func everythingTarget(t *testing.T) []string {
	command, argv := interop.ServerEverything(t, "stdio")
	return append([]string{"--", command}, argv...)
}

// A person fills in server-everything's form, which has every field type:
// bad input is refused on the spot with the reason, then corrected.
func TestPtyElicitationForm(t *testing.T) {
	t.Parallel()
	s := startPty(t, nil, append([]string{"call", "trigger-elicitation-request"}, everythingTarget(t)...)...)
	s.expect("the server asks:")
	s.expect("Please provide inputs for the following fields:")
	s.expect("fill in the form and send it")
	s.send(keyEnter)
	// Each field is typed into once it has the focus (huh moves it
	// between key presses, so keys sent ahead could land on the last one).
	s.field("Your full, legal name", keyEnter)
	s.expect("required") // the empty required name is refused
	s.send("Ada", keyEnter)
	s.field("Agree to the terms", "y")
	s.field("Favorite first line", keyEnter) // keeps its default
	s.field("Your email address", "ada", keyEnter)
	s.expect("not an email address")
	s.send("@example.com", keyEnter)
	s.field("Portfolio / personal website", "example", keyEnter)
	s.expect("not a URI")
	s.send(keyBack, keyBack, keyBack, keyBack, keyBack, keyBack, keyBack, "https://ada.example/", keyEnter)
	s.field("Your date of birth", "2026-13-01", keyEnter)
	s.expect("not a date")
	s.send(keyBack, keyBack, keyBack, keyBack, keyBack, "01-02", keyEnter)
	s.field("Your favorite integer", "0", keyEnter) // 420, over 100
	s.expect("at most 100")
	s.send(keyBack, keyEnter)
	s.field("Favorite number", "x", keyEnter)
	s.expect("not a number")
	s.send(keyBack, keyEnter)
	s.field("Choose your favorite friend", keyDown, keyEnter)           // from the default Monica to Rachel
	s.field("Choose your favorite instruments", keyDown, "x", keyEnter) // Guitar (default) and Piano
	s.field("Choose your favorite hero", keyEnter)                      // the default, Superman
	s.field("Choose your favorite types of fish", "x", keyEnter)        // Tuna off: none chosen
	s.expect("choose at least 1")
	s.send("x", keyEnter)
	s.field("Choose your favorite type of pet", keyDown, keyEnter) // Dogs
	s.expect("User provided the requested information!")
	// The server's echo of what it got, keys in order.
	for _, want := range []string{
		`"birthdate": "2026-01-02"`, `"check": true`, `"email": "ada@example.com"`,
		`"firstLine": "It was a dark and stormy night."`, `"homepage": "https://ada.example/"`,
		`"integer": 42`, `"legacyTitledEnum": "pet-2"`, `"name": "Ada"`, `"number": 3.14`,
		`"titledMultipleSelectEnum": [`, `"fish-1"`, `"titledSingleSelectEnum": "hero-1"`,
		`"untitledMultipleSelectEnum": [`, `"Guitar",`, `"Piano"`, `"untitledSingleSelectEnum": "Rachel"`,
	} {
		s.expect(want)
	}
	if code := s.wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.screen()))
	}
}

// The person declines the example server's form, or leaves it with
// Ctrl-C (in its first question or amid its fields): the server gets
// decline or cancel, the call goes on to its result, and mcpwire ends
// normally. In both eras.
func TestPtyElicitationDeclineCancel(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		for _, c := range []struct {
			name   string
			answer func(s *ptySession)
			want   string
		}{
			{"decline", func(s *ptySession) { s.send(keyDown, keyEnter) }, `{"action":"decline"}`},
			{"ctrl-c", func(s *ptySession) { s.send(keyCtrlC) }, `{"action":"cancel"}`},
			{"ctrl-c amid the fields", func(s *ptySession) {
				s.send(keyEnter)
				s.field("Name (required)", keyCtrlC)
			}, `{"action":"cancel"}`},
		} {
			t.Run(era+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				s := startPty(t, nil, append([]string{"call", "elicit", "--arg", "message=Your name?", "--protocol", era}, server()...)...)
				s.expect("the server asks:")
				s.expect("Your name?")
				s.expect("fill in the form and send it")
				c.answer(s)
				s.expect(c.want)
				if code := s.wait(); code != 0 {
					t.Errorf("exit %d; screen:\n%s", code, screenTail(s.screen()))
				}
			})
		}
	}
}

// Without a terminal nobody is asked: the server gets decline, and the
// user a note naming the flags that answer.
func TestElicitationWithoutTerminal(t *testing.T) {
	t.Parallel()
	r := run(t, append([]string{"call", "elicit", "--arg", "message=Your name?"}, server()...)...)
	r.wantCode(t, 0)
	if !strings.Contains(r.out, `{"action":"decline"}`) || !strings.Contains(r.err, "answer with --elicit defaults, --elicit-json '{...}' or --elicit decline") {
		t.Errorf("stdout %q, stderr %q", r.out, r.err)
	}
}

// Under the manager (a configured server) the form names the server that
// asks.
func TestPtyElicitationNamesConfiguredServer(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "mcpwire.json")
	doc := `{"mcpServers": {"demo": {"command": ` + strconv.Quote(os.Args[0]) + `, "args": ["` + ServeName + `"]}}}`
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startPty(t, nil, "call", "demo/elicit", "--arg", "message=Who are you?", "--config", file)
	s.expect(`server "demo" asks:`)
	s.expect("Who are you?")
	s.expect("fill in the form and send it")
	s.send(keyDown, keyEnter)
	s.expect(`{"action":"decline"}`)
	if code := s.wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.screen()))
	}
}
