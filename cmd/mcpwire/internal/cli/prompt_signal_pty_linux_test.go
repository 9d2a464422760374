package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/ptytest"
)

// startPtyCmd is startPty that also returns the process, for a test that
// signals it, and a second handle on its terminal (opened through /proc),
// for one that reads the terminal's modes after it ended.
func startPtyCmd(t *testing.T, env []string, args ...string) (*ptySession, *os.Process, *os.File) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), runAsMcpwire+"=1", "TERM=xterm-256color", "NO_COLOR=1"), env...)
	s := ptytest.Start(t, cmd)
	tty, err := os.OpenFile("/proc/"+strconv.Itoa(cmd.Process.Pid)+"/fd/0", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return s, cmd.Process, tty
}

// SIGTERM while the person writes a sampling reply in the editor: the
// command ends (130), and the terminal is as it was before, although the
// editor (here one that puts the terminal in raw mode and never puts it
// back) did not restore it. Before, the editor was SIGKILLed and the
// shell was left with no echo and no line editing.
func TestPtySIGTERMInEditorRestoresTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	editor := writeScript(t, dir, "editor", "stty raw -echo\nprintf 'editor-running\\n'\nexec sleep 3600\n")
	s, proc, tty := startPtyCmd(t, []string{"EDITOR=" + editor, "VISUAL="},
		append([]string{"call", "sample", "--arg", "prompt=Name a colour"}, server()...)...)
	before := termios(t, tty)
	s.Expect("write the reply in " + editor)
	s.Send(keyEnter)
	s.Expect("editor-running")
	if err := proc.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := s.Wait(); code != ExitInterrupted {
		t.Errorf("exit %d, want %d; screen:\n%s", code, ExitInterrupted, screenTail(s.Screen()))
	}
	if after := termios(t, tty); after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag {
		t.Errorf("the terminal's modes changed: lflag %#o, iflag %#o, oflag %#o; before %#o, %#o, %#o",
			after.Lflag, after.Iflag, after.Oflag, before.Lflag, before.Iflag, before.Oflag)
	}
}

// termios reads a terminal's modes.
func termios(t *testing.T, tty *os.File) syscall.Termios {
	t.Helper()
	var st syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&st))); errno != 0 {
		t.Fatal(errno)
	}
	return st
}

// SIGTERM while a config input is asked: the question is left unanswered
// and the command ends (130). Before, bubbletea's own SIGTERM handling
// ended the prompt as if Enter had been pressed: the empty input was
// taken as the value, and the next input was asked.
func TestPtySIGTERMAtConfigInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc, _ := json.Marshal(map[string]any{
		"inputs": []map[string]any{
			{"id": "api-key", "type": "promptString", "description": "The API key", "password": true},
			{"id": "region", "type": "promptString", "description": "The region"},
		},
		"servers": map[string]any{"api": map[string]any{
			"command": os.Args[0], "args": []string{ServeName},
			"env": map[string]string{"API_KEY": "${input:api-key}", "REGION": "${input:region}"},
		}},
	})
	file := filepath.Join(dir, ".vscode", "mcp.json") // VS Code's format, which has inputs
	if err := os.Mkdir(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	s, proc, _ := startPtyCmd(t, nil, "tools", "--config", file)
	s.Expect(`Config input "api-key": The API key`)
	if err := proc.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := s.Wait()
	if strings.Contains(s.Screen(), `Config input "region"`) {
		t.Errorf("after SIGTERM the next input was asked; screen:\n%s", screenTail(s.Screen()))
	}
	if code != ExitInterrupted {
		t.Errorf("exit %d, want %d; screen:\n%s", code, ExitInterrupted, screenTail(s.Screen()))
	}
}
