package cli

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"
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
//
// bubbletea v2 also sends the program a size of its own when it starts:
// 0x0 for an output that is no terminal, which could land after ours and
// leave the prompt undrawn; sizeOption gives it the terminal's instead.
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

// sizeOption is the program option that starts it at the size of the
// terminal tty (none if that cannot be read).
func sizeOption(tty *os.File) []tea.ProgramOption {
	w, h, err := term.GetSize(int(tty.Fd()))
	if err != nil {
		return nil
	}
	return []tea.ProgramOption{tea.WithWindowSize(w, h)}
}
