package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
	"github.com/mcpwire/mcpwire/mcptest"
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
	s.Expect("the server asks:")
	s.Expect("Please provide inputs for the following fields:")
	s.Expect("fill in the form and send it")
	s.Send(keyEnter)
	// Each field is typed into once it has the focus (huh moves it
	// between key presses, so keys sent ahead could land on the last one).
	s.Field("Your full, legal name", keyEnter)
	s.Expect("required") // the empty required name is refused
	s.Send("Ada", keyEnter)
	s.Field("Agree to the terms", "y")
	s.Field("Favorite first line", keyEnter) // keeps its default
	s.Field("Your email address", "ada", keyEnter)
	s.Expect("not an email address")
	s.Send("@example.com", keyEnter)
	s.Field("Portfolio / personal website", "example", keyEnter)
	s.Expect("not a URI")
	// Corrected in few keys: every key redraws the whole form, which
	// under -race on a busy machine takes up to ~0.7 s.
	s.Send(keyCtrlA, "https://", keyEnter)
	s.Field("Your date of birth", "2026-13-01", keyEnter)
	s.Expect("not a date")
	s.Send(keyBack, keyBack, keyBack, keyBack, keyBack, "01-02", keyEnter)
	s.Field("Your favorite integer", "0", keyEnter) // 420, over 100
	s.Expect("at most 100")
	s.Send(keyBack, keyEnter)
	s.Field("Favorite number", "x", keyEnter)
	s.Expect("not a number")
	s.Send(keyBack, keyEnter)
	s.Field("Choose your favorite friend", keyDown, keyEnter)           // from the default Monica to Rachel
	s.Field("Choose your favorite instruments", keyDown, "x", keyEnter) // Guitar (default) and Piano
	s.Field("Choose your favorite hero", keyEnter)                      // the default, Superman
	s.Field("Choose your favorite types of fish", "x", keyEnter)        // Tuna off: none chosen
	s.Expect("choose at least 1")
	s.Send("x", keyEnter)
	s.Field("Choose your favorite type of pet", keyDown, keyEnter) // Dogs
	s.Expect("User provided the requested information!")
	// The server's echo of what it got, keys in order.
	for _, want := range []string{
		`"birthdate": "2026-01-02"`, `"check": true`, `"email": "ada@example.com"`,
		`"firstLine": "It was a dark and stormy night."`, `"homepage": "https://example"`,
		`"integer": 42`, `"legacyTitledEnum": "pet-2"`, `"name": "Ada"`, `"number": 3.14`,
		`"titledMultipleSelectEnum": [`, `"fish-1"`, `"titledSingleSelectEnum": "hero-1"`,
		`"untitledMultipleSelectEnum": [`, `"Guitar",`, `"Piano"`, `"untitledSingleSelectEnum": "Rachel"`,
	} {
		s.Expect(want)
	}
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
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
			{"decline", func(s *ptySession) { s.Send(keyDown, keyEnter) }, `{"action":"decline"}`},
			{"ctrl-c", func(s *ptySession) { s.Send(keyCtrlC) }, `{"action":"cancel"}`},
			{"ctrl-c amid the fields", func(s *ptySession) {
				s.Send(keyEnter)
				s.Field("Name (required)", keyCtrlC)
			}, `{"action":"cancel"}`},
		} {
			t.Run(era+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				s := startPty(t, nil, append([]string{"call", "elicit", "--arg", "message=Your name?", "--protocol", era}, server()...)...)
				s.Expect("the server asks:")
				s.Expect("Your name?")
				s.Expect("fill in the form and send it")
				c.answer(s)
				s.Expect(c.want)
				if code := s.Wait(); code != 0 {
					t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
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
	s.Expect(`server "demo" asks:`)
	s.Expect("Who are you?")
	s.Expect("fill in the form and send it")
	s.Send(keyDown, keyEnter)
	s.Expect(`{"action":"decline"}`)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
}

// A form's field titles and choice labels are shown on one line each: a
// newline in them cannot draw a line of mcpwire's own (or a choice that
// is not one) on the form.
func TestPtyFormFieldsStayOnTheirLines(t *testing.T) {
	t.Parallel()
	srv := mcptest.NewDefault(nil)
	srv.AddTool(mcptest.Tool{Name: "hostile-form"}, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		raw, err := req.Session.Elicit(ctx, map[string]any{"message": "Pick one.", "requestedSchema": map[string]any{
			"type": "object", "properties": map[string]any{"color": map[string]any{
				"type": "string", "title": "Colour\nmcpwire: verified by mcpwire",
				"oneOf": []any{map[string]any{"const": "r", "title": "Red\nmcpwire: safe choice"}, map[string]any{"const": "b", "title": "Blue"}},
			}},
		}})
		if err != nil {
			return mcptest.ErrorResult(err.Error()), nil
		}
		return mcptest.TextResult(string(raw)), nil
	})
	hs := mcptest.NewHTTPServer(t, srv, nil)
	s := startPty(t, nil, "call", "hostile-form", hs.URL)
	s.Expect("fill in the form and send it")
	s.Send(keyEnter)
	s.Expect("Blue")
	for _, l := range strings.Split(s.Screen(), "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " ┃>│"), "mcpwire:") {
			t.Errorf("a line of the form passes for mcpwire's: %q\nscreen:\n%s", l, screenTail(s.Screen()))
		}
	}
	s.Send(keyCtrlC)
	s.Wait()
}
