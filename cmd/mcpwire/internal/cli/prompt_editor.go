package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
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

// Edit implements Prompter: it opens initial in the person's editor on
// the terminal and returns the file as they saved it. The editor's
// command line may carry arguments ("code --wait").
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
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("the editor %q failed: %v", argv[0], err)
	}
	b, err := os.ReadFile(name)
	return string(b), err
}
