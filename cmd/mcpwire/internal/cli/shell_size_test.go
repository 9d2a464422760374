package cli

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"
)

// sizeModel quits once the program tells it the window's size. The 0x0
// that bubbletea sends at start for an output that is no terminal is not
// one.
type sizeModel struct{ got tea.WindowSizeMsg }

func (m *sizeModel) Init() tea.Cmd { return nil }
func (m *sizeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok && s.Width > 0 {
		m.got = s
		return m, tea.Quit
	}
	return m, nil
}
func (m *sizeModel) View() tea.View { return tea.NewView("") }

// The shell draws through the masking writer, yet bubbletea must know the
// terminal's size: without its width the prompt is redrawn beside itself
// instead of over itself.
func TestFollowSizeTellsTheTerminalsSize(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
	defer ptm.Close()
	defer tty.Close()
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 33, Cols: 111}); err != nil {
		t.Fatal(err)
	}
	var drawn syncBuffer
	m := &sizeModel{}
	// The deadline only ends a failing test; a passing one quits at once.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(&drawn))
	followSize(ctx, p, tty)
	if _, err := p.Run(); err != nil {
		t.Fatalf("the program never learnt the terminal's size: %v", err)
	}
	if m.got.Width != 111 || m.got.Height != 33 {
		t.Errorf("size %dx%d, want 111x33", m.got.Width, m.got.Height)
	}
}
