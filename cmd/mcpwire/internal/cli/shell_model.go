package cli

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// shellPrompt starts the line being typed; on a configured server in
// use, its name comes before the ">".
const shellPrompt = "mcpwire> "

// prompt is the prompt for the server in use.
func (sh *shell) prompt() string {
	if sh.servers == nil {
		return shellPrompt
	}
	if name := sh.servers.using(); name != "" {
		return "mcpwire " + Sanitize(name) + "> "
	}
	return shellPrompt
}

// liveMsg replaces the live line (a call's progress); "" clears it.
type liveMsg string

// doneMsg says the command in flight has finished.
type doneMsg struct{}

// shellModel is the prompt: bubbletea draws it, and what commands and the
// server print goes above it (tea.Println), so a notification never
// breaks the line being typed.
type shellModel struct {
	ctx     context.Context
	sh      *shell
	in      textinput.Model
	running context.CancelFunc // the command in flight; nil at the prompt
	live    string
	histAt  int // position in the history while browsing it
	// ahead are the keys typed while a command runs, taken once it is
	// done, as a shell takes type-ahead: Tab, the arrows and Ctrl-D too,
	// which need the prompt's state. (A person, or a test, cannot tell
	// from the screen that a command has ended: the prompt's last frame
	// stays drawn until the next one, and output is printed above it.)
	ahead []tea.KeyPressMsg
	// quitting: the shell is ending; keys typed ahead are not taken.
	quitting bool
}

func newShellModel(ctx context.Context, sh *shell) *shellModel {
	in := textinput.New()
	// Plain text, as the terminal's own colours draw it (bubbles v2's
	// defaults paint the prompt and cursor light grey, for a dark
	// background); the cursor a blinking reverse-video block.
	in.SetStyles(textinput.Styles{Cursor: textinput.CursorStyle{Color: lipgloss.NoColor{}, Shape: tea.CursorBlock, Blink: true}})
	in.Prompt = sh.prompt()
	in.Focus()
	return &shellModel{ctx: ctx, sh: sh, in: in, histAt: sh.history.len()}
}

func (m *shellModel) Init() tea.Cmd { return textinput.Blink }

// The keys the prompt takes itself (tea.KeyPressMsg.String's names).
const (
	keyNameCtrlC = "ctrl+c"
	keyNameCtrlD = "ctrl+d"
	keyNameEnter = "enter"
	keyNameTab   = "tab"
	keyNameUp    = "up"
	keyNameDown  = "down"
)

func (m *shellModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case liveMsg:
		m.live = string(msg)
		return m, nil
	case doneMsg:
		m.running, m.live = nil, ""
		m.in.Prompt = m.sh.prompt() // "use" may have changed it
		return m, m.takeAhead()
	case tea.KeyPressMsg:
		if m.running != nil {
			return m, m.typeAhead(msg)
		}
		switch k := msg.String(); k {
		case keyNameCtrlD:
			if m.in.Value() == "" {
				m.quitting = true
				return m, tea.Quit
			}
		case keyNameCtrlC:
			m.in.SetValue("")
			return m, nil
		case keyNameEnter:
			return m, m.enter()
		case keyNameTab:
			return m, m.complete()
		case keyNameUp, keyNameDown:
			m.browse(k == keyNameUp)
			return m, nil
		}
	}
	var cmd tea.Cmd
	m.in, cmd = m.in.Update(msg)
	return m, cmd
}

// typeAhead takes a key while a command runs: Ctrl-C cancels the command
// (the shell stays) and drops what was typed ahead; other keys wait for
// the prompt (takeAhead).
func (m *shellModel) typeAhead(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == keyNameCtrlC {
		m.running()
		m.ahead = nil
		return nil
	}
	if len(m.ahead) < maxTypeAhead {
		m.ahead = append(m.ahead, msg)
	}
	return nil
}

// maxTypeAhead bounds the keys kept while a command runs: a paste of a
// whole file into a busy shell keeps its first 64 KiB of keys, and the
// rest is dropped, as a terminal's own type-ahead buffer drops it.
const maxTypeAhead = 64 << 10

// takeAhead gives the prompt the keys typed while the command ran, in
// order, up to one that runs a command again (the rest wait for that
// one) or ends the shell. Their commands run side by side: a list of
// completions a Tab prints may show after the echo of the line an Enter
// then runs.
func (m *shellModel) takeAhead() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.ahead) > 0 && m.running == nil && !m.quitting {
		k := m.ahead[0]
		m.ahead = m.ahead[1:]
		_, cmd := m.Update(k)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// enter runs the typed line.
func (m *shellModel) enter() tea.Cmd {
	line := m.in.Value()
	m.in.SetValue("")
	return m.run(line)
}

// run runs line: echoed above the prompt, kept in the history, and
// executed off the program's loop (doneMsg says it ended).
func (m *shellModel) run(line string) tea.Cmd {
	line = strings.TrimSpace(line)
	echo := tea.Println(m.in.Prompt + line)
	if line == "" {
		return echo
	}
	m.sh.history.add(line)
	m.histAt = m.sh.history.len()
	if line == "exit" || line == "quit" {
		m.quitting = true
		return tea.Sequence(echo, tea.Quit)
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.running = cancel
	return tea.Sequence(echo, func() tea.Msg {
		defer cancel()
		m.sh.exec(ctx, line)
		return doneMsg{}
	})
}

// browse moves through the history.
func (m *shellModel) browse(up bool) {
	n := m.sh.history.len()
	if up && m.histAt > 0 {
		m.histAt--
	} else if !up && m.histAt < n {
		m.histAt++
	}
	m.in.SetValue(m.sh.history.at(m.histAt))
	m.in.CursorEnd()
}

// complete completes the word before the cursor: at once when one
// candidate fits or they share more, else by listing them above.
func (m *shellModel) complete() tea.Cmd {
	line := m.in.Value()
	head, word := splitLastWord(line)
	cands := m.sh.candidates(m.ctx, line)
	if len(cands) == 0 {
		return nil
	}
	if len(cands) == 1 {
		c := cands[0]
		if !strings.HasSuffix(c, "=") {
			c += " "
		}
		m.in.SetValue(head + c)
		m.in.CursorEnd()
		return nil
	}
	if p := commonPrefix(cands); len(p) > len(word) {
		m.in.SetValue(head + p)
		m.in.CursorEnd()
		return nil
	}
	return tea.Println(strings.Join(cands, "  "))
}

func (m *shellModel) View() tea.View {
	if m.running != nil {
		return tea.NewView(m.live)
	}
	return tea.NewView(m.in.View())
}

// splitLastWord splits line before its last word (the one being typed).
func splitLastWord(line string) (head, word string) {
	i := strings.LastIndexAny(line, " \t")
	return line[:i+1], line[i+1:]
}

// commonPrefix is the longest prefix of every string in list.
func commonPrefix(list []string) string {
	p := list[0]
	for _, s := range list[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}
