package cli

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"golang.org/x/term"
)

// A server may ask the person at the terminal while a command works: a
// form (elicitation), a URL to open, a model's reply (sampling). Commands
// ask through Prompter, which tests replace; the terminal's Prompter is
// built on Charm's huh (prompt_huh.go). Without a terminal there is no
// Prompter, and the flags answer instead (target_input.go).

// Prompter asks the person at the terminal. Its methods are called one at
// a time (IOStreams.ask serializes them), as handlers run concurrently.
type Prompter interface {
	// Form shows heading and message, asks whether to fill in the form,
	// then asks its fields. The action is accept, decline or cancel; the
	// answer counts only with accept.
	Form(ctx context.Context, heading, message string, spec *formSpec) (string, formAnswer, error)
	// Select offers options under question and returns the index chosen.
	Select(ctx context.Context, question, detail string, options []string) (int, error)
	// Input asks for one line; secret hides what is typed.
	Input(ctx context.Context, question, detail string, secret bool) (string, error)
	// Edit opens initial in the person's editor and returns what they
	// saved.
	Edit(ctx context.Context, initial string) (string, error)
}

// errPromptCancelled is a prompt the person left with Ctrl-C: the
// question is cancelled, not the program.
var errPromptCancelled = errors.New("cancelled at the prompt")

// terminalPrompter is the Prompter of the process's own terminal: when
// stdin and stderr are both terminals, so that there is someone to ask and
// somewhere to ask them. Otherwise nil.
func terminalPrompter() Prompter {
	if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return &huhPrompter{in: os.Stdin, out: os.Stderr}
}

// prompting holds the terminal while a prompt is up: one prompt at a
// time, and the progress line keeps off the screen meanwhile. A process
// has one terminal, so this is the process's.
var prompting struct {
	mu     sync.Mutex
	active atomic.Bool
}

// ask runs fn with the terminal held. The live progress line is cleared
// first, so that the prompt starts on a clean line.
func (s *IOStreams) ask(fn func(p Prompter) error) error {
	prompting.mu.Lock()
	defer prompting.mu.Unlock()
	prompting.active.Store(true)
	defer prompting.active.Store(false)
	if s.IsTerminal {
		s.ErrOut.Write([]byte("\r\x1b[K"))
	}
	return fn(s.Prompter)
}

// asking reports whether a prompt holds the terminal.
func (s *IOStreams) asking() bool { return prompting.active.Load() }
