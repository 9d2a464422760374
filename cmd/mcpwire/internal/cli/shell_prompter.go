package cli

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"
)

// shellPrompter asks the person during a shell command with the same
// prompts as the one-shot commands (inner, huh's). The shell's line
// editor holds the terminal, so each question runs as a tea.Exec: the
// shell's program gives the terminal up, the prompt runs, and the program
// takes it back and draws the prompt again. Ctrl-C inside the prompt is
// the prompt's (it cancels the question, not the call).
type shellPrompter struct {
	sh    *shell
	inner Prompter
}

// Form implements Prompter.
func (p *shellPrompter) Form(ctx context.Context, heading, message string, spec *formSpec) (action string, answer formAnswer, err error) {
	err = p.suspended(ctx, func() error {
		var err error
		action, answer, err = p.inner.Form(ctx, heading, message, spec)
		return err
	})
	return action, answer, err
}

// Select implements Prompter.
func (p *shellPrompter) Select(ctx context.Context, question, detail string, options []string) (chosen int, err error) {
	err = p.suspended(ctx, func() error {
		var err error
		chosen, err = p.inner.Select(ctx, question, detail, options)
		return err
	})
	return chosen, err
}

// Input implements Prompter.
func (p *shellPrompter) Input(ctx context.Context, question, detail string, secret bool) (value string, err error) {
	err = p.suspended(ctx, func() error {
		var err error
		value, err = p.inner.Input(ctx, question, detail, secret)
		return err
	})
	return value, err
}

// Edit implements Prompter.
func (p *shellPrompter) Edit(ctx context.Context, initial string) (text string, err error) {
	err = p.suspended(ctx, func() error {
		var err error
		text, err = p.inner.Edit(ctx, initial)
		return err
	})
	return text, err
}

// suspended runs ask with the shell's program paused, or at once when no
// program runs (before the session: a config input). It returns when ask
// has, or when the session ends first.
func (p *shellPrompter) suspended(ctx context.Context, ask func() error) error {
	p.sh.mu.Lock()
	prog, ended := p.sh.program, p.sh.ended
	p.sh.mu.Unlock()
	if prog == nil {
		return ask()
	}
	done := make(chan error, 1) // buffered: the program's loop never waits on it
	run := &promptRun{ask: ask, done: done}
	go prog.Send(tea.Exec(run, nil)())
	select {
	case err := <-done:
		return err
	case <-ended:
		return errPromptCancelled
	case <-ctx.Done():
		// The prompt itself ends with ctx too (huhPrompter.run); wait
		// for it, so that the terminal is the shell's again.
		select {
		case err := <-done:
			return err
		case <-ended:
			return ctx.Err()
		}
	}
}

// promptRun is a question as a tea.ExecCommand: the program runs it on
// its own loop, with the terminal given up.
type promptRun struct {
	ask  func() error
	done chan error
}

func (r *promptRun) Run() error {
	err := r.ask()
	r.done <- err
	return nil // the shell goes on whatever the answer
}

// The prompt reads and draws on the terminal itself (huhPrompter).
func (r *promptRun) SetStdin(io.Reader)  {}
func (r *promptRun) SetStdout(io.Writer) {}
func (r *promptRun) SetStderr(io.Writer) {}
