package cli

import (
	"context"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"
)

// followSize tells p the size of the terminal tty now and after each
// change. bubbletea reads the size only from an output it sees is a
// terminal, and the shell draws through the masking writer (secrets never
// reach the screen); without the size it draws as on a screen of no
// width, never clearing what it drew, so each redraw of the prompt lands
// beside the last. (Handing bubbletea a writer that claims the terminal
// instead races inside bubbletea, on every question a server asks.) It
// stops when ctx ends.
func followSize(ctx context.Context, p *tea.Program, tty *os.File) {
	send := func() {
		if w, h, err := term.GetSize(int(tty.Fd())); err == nil {
			p.Send(tea.WindowSizeMsg{Width: w, Height: h})
		}
	}
	changes, stop := terminalResizes()
	go func() {
		defer stop()
		send()
		for {
			select {
			case <-ctx.Done():
				return
			case <-changes:
				send()
			}
		}
	}()
}
