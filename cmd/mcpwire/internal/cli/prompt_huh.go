package cli

import (
	"context"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// huhPrompter asks on a terminal with Charm's huh: fields that refuse bad
// input as it is entered, arrow-key choices, hidden input for secrets.
// Ctrl-C leaves the prompt (errPromptCancelled), not the program: huh
// reads the terminal in raw mode, where Ctrl-C is a key, not a signal.
type huhPrompter struct {
	in  *os.File
	out *os.File
}

// run shows one huh form on the terminal. The form runs in a program of
// our own so that every way out is bubbletea's orderly quit, which waits
// for its terminal reader to stop: huh's own Run ends Ctrl-C and an ended
// context by killing the program, which closes the terminal under the
// reader (a data race in bubbletea v1.3; huh v2 still kills it).
func (h *huhPrompter) run(ctx context.Context, groups ...*huh.Group) error {
	f := huh.NewForm(groups...).WithTheme(huh.ThemeFunc(huh.ThemeBase))
	f.SubmitCmd, f.CancelCmd = tea.Quit, tea.Quit
	p := tea.NewProgram(huhModel{f}, tea.WithInput(h.in), tea.WithOutput(h.out))
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	_, err := p.Run()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	case f.State != huh.StateCompleted:
		// Aborted (Ctrl-C), or ended unanswered: bubbletea ends its
		// program on SIGTERM (and a SIGINT from outside) as if it
		// quit normally. What the fields hold then (an empty input, the
		// first choice, "open it in the browser") is no answer.
		return errPromptCancelled
	}
	return nil
}

// Form implements Prompter.
func (h *huhPrompter) Form(ctx context.Context, heading, message string, spec *formSpec) (string, formAnswer, error) {
	answer := formAnswer{Text: map[string]string{}, Lists: map[string][]string{}}
	action := "accept"
	err := h.run(ctx, huh.NewGroup(
		huh.NewNote().Title(heading).Description(message),
		huh.NewSelect[string]().Title("Answer?").Options(
			huh.NewOption("fill in the form and send it", "accept"),
			huh.NewOption("decline", "decline"),
			huh.NewOption("cancel", "cancel"),
		).Value(&action),
	))
	if err != nil || action != "accept" || len(spec.Fields) == 0 {
		return action, answer, err
	}
	var fields []huh.Field
	texts := make([]string, len(spec.Fields))
	lists := make([][]string, len(spec.Fields))
	bools := make([]bool, len(spec.Fields))
	for i, f := range spec.Fields {
		// A title and a choice's label stay on their line: a newline in
		// them would draw a line, or a choice, that is not one.
		title := sanitizeLine(f.Title)
		if f.Required {
			title += " (required)"
		}
		desc := Sanitize(f.Description)
		switch f.Kind {
		case fieldText:
			texts[i] = f.Default
			in := huh.NewInput().Title(title).Description(desc).Value(&texts[i])
			if f.Check != nil {
				in = in.Validate(f.Check)
			}
			fields = append(fields, in)
		case fieldBool:
			bools[i] = f.Default == "true"
			fields = append(fields, huh.NewConfirm().Title(title).Description(desc).Affirmative("yes").Negative("no").Value(&bools[i]))
		case fieldChoice:
			texts[i] = f.Default
			var opts []huh.Option[string]
			if !f.Required {
				opts = append(opts, huh.NewOption("(none)", ""))
			}
			for _, o := range f.Options {
				opts = append(opts, huh.NewOption(sanitizeLine(o.Label), o.Value))
			}
			fields = append(fields, huh.NewSelect[string]().Title(title).Description(desc).Options(opts...).Value(&texts[i]))
		case fieldChoices:
			lists[i] = f.DefaultList
			var opts []huh.Option[string]
			for _, o := range f.Options {
				opts = append(opts, huh.NewOption(sanitizeLine(o.Label), o.Value))
			}
			fields = append(fields, huh.NewMultiSelect[string]().Title(title).Description(desc+" (space toggles)").Options(opts...).Value(&lists[i]).Validate(f.checkChoices))
		}
	}
	if err := h.run(ctx, huh.NewGroup(fields...)); err != nil {
		return "cancel", answer, err
	}
	for i, f := range spec.Fields {
		switch f.Kind {
		case fieldBool:
			answer.Text[f.Name] = "false"
			if bools[i] {
				answer.Text[f.Name] = "true"
			}
		case fieldChoices:
			answer.Lists[f.Name] = append([]string{}, lists[i]...)
		default:
			answer.Text[f.Name] = texts[i]
		}
	}
	return "accept", answer, nil
}

// Select implements Prompter.
func (h *huhPrompter) Select(ctx context.Context, question, detail string, options []string) (int, error) {
	chosen := 0
	opts := make([]huh.Option[int], len(options))
	for i, o := range options {
		opts[i] = huh.NewOption(o, i)
	}
	err := h.run(ctx, huh.NewGroup(huh.NewSelect[int]().Title(question).Description(detail).Options(opts...).Value(&chosen)))
	return chosen, err
}

// Input implements Prompter.
func (h *huhPrompter) Input(ctx context.Context, question, detail string, secret bool) (string, error) {
	var value string
	in := huh.NewInput().Title(question).Description(detail).Value(&value)
	if secret {
		in = in.EchoMode(huh.EchoModePassword)
	}
	err := h.run(ctx, huh.NewGroup(in))
	return strings.TrimRight(value, "\r\n"), err
}

// huhModel runs a huh form as a bubbletea program of our own: huh v2's
// Form is a model of its own kind (its View is a string), which only its
// Run wraps for bubbletea.
type huhModel struct{ f *huh.Form }

func (m huhModel) Init() tea.Cmd { return m.f.Init() }

func (m huhModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.f.Update(msg)
	return m, cmd
}

func (m huhModel) View() tea.View { return tea.NewView(m.f.View()) }
