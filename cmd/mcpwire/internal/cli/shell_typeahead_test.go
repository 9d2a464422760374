package cli

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Keys typed while a command runs are kept in order, up to a bound: a
// paste into a busy shell does not grow its memory without end.
func TestShellTypeAheadBounded(t *testing.T) {
	m := &shellModel{running: func() {}}
	for i := range maxTypeAhead + 100 {
		m.typeAhead(tea.KeyPressMsg{Code: rune('a' + i%26), Text: string(rune('a' + i%26))})
	}
	if len(m.ahead) != maxTypeAhead {
		t.Fatalf("%d keys kept, want the bound %d", len(m.ahead), maxTypeAhead)
	}
	if m.ahead[0].Text != "a" || m.ahead[27].Text != "b" {
		t.Fatalf("keys out of order: %q, %q", m.ahead[0].Text, m.ahead[27].Text)
	}
}
