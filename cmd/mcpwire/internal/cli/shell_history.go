package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"sync"
)

// shellHistoryMax bounds the lines kept.
const shellHistoryMax = 1000

// shellHistory is the shell's history, kept in the user's state
// directory ($XDG_STATE_HOME/mcpwire/shell_history, by default
// ~/.local/state/mcpwire/shell_history) so that it outlives the session.
// Without a home directory it lives for the session only.
type shellHistory struct {
	mu    sync.Mutex
	lines []string
	path  string
}

// shellHistoryPath is the history file, "" when there is no state dir.
func shellHistoryPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "mcpwire", "shell_history")
}

func openShellHistory() *shellHistory {
	h := &shellHistory{path: shellHistoryPath()}
	if h.path == "" {
		return h
	}
	f, err := os.Open(h.path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h.lines = append(h.lines, sc.Text())
	}
	if len(h.lines) > shellHistoryMax {
		h.lines = h.lines[len(h.lines)-shellHistoryMax:]
	}
	return h
}

func (h *shellHistory) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.lines)
}

// at is line i, "" past the end (a new line).
func (h *shellHistory) at(i int) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i < 0 || i >= len(h.lines) {
		return ""
	}
	return h.lines[i]
}

// add appends line, in memory and to the file (private to the user: a
// line may hold an argument's secret). A file that cannot be written
// costs only the history.
func (h *shellHistory) add(line string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, line)
	if h.path == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(h.path), 0o700) != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line + "\n")
}
