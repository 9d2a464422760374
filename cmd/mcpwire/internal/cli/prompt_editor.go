package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"golang.org/x/term"
)

// editorName is the editor the person has chosen: $VISUAL, then $EDITOR,
// else vi (notepad on Windows).
func editorName() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	if runtime.GOOS == "windows" {
		return "notepad"
	}
	return "vi"
}

// editorGrace is how long an editor told to stop (the command was
// interrupted) has to restore the screen and quit before it is killed.
const editorGrace = 2 * time.Second

// Edit implements Prompter: it opens initial in the person's editor on
// the terminal and returns the file as they saved it. The editor's
// command line may carry arguments ("code --wait").
//
// The editor owns the terminal while it runs: raw mode, the alternate
// screen. When the command ends under it (SIGTERM, a deadline), it is
// asked to stop rather than killed at once, and the terminal's modes are
// put back afterwards whatever became of it: an editor killed mid-edit
// leaves the shell with no echo and no line editing.
func (h *huhPrompter) Edit(ctx context.Context, initial string) (string, error) {
	f, err := os.CreateTemp("", "mcpwire-reply-*.md")
	if err != nil {
		return "", err
	}
	name := f.Name()
	defer os.Remove(name)
	_, err = f.WriteString(initial)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	argv := strings.Fields(editorName())
	cmd := exec.CommandContext(ctx, argv[0], append(argv[1:], name)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = h.in, h.out, h.out
	cmd.Cancel = func() error { return stopEditor(cmd.Process) }
	cmd.WaitDelay = editorGrace
	fd := int(h.in.Fd())
	saved, _ := term.GetState(fd) // nil when in is no terminal: nothing to restore
	err = cmd.Run()
	if saved != nil {
		if st := cmd.ProcessState; st != nil && !st.Exited() {
			// Killed by a signal: it never left its screen.
			fmt.Fprint(h.out, "\x1b[?1049l\x1b[?25h\r\n")
		}
		_ = term.Restore(fd, saved)
	}
	if err != nil {
		return "", fmt.Errorf("the editor %q failed: %v", argv[0], err)
	}
	b, err := os.ReadFile(name)
	return string(b), err
}
