package ptytest

import "testing"

// render is the screen after out, fed at once.
func render(out string) string {
	s := newScreen()
	s.feed([]byte(out))
	return s.text()
}

// A redraw as bubbletea v2 and huh write it: lines redrawn in pieces,
// erased, moved over, a title set by OSC (ended by BEL and by ST), a
// character set chosen, and characters of two and three bytes.
const redraw = "┃ Name\r\n┃ > Ad\x1b[7m \x1b[m\r\n\nshift+tab back • enter next\r" +
	"\x1b[2A\x1b[J\x1b]0;title\x07  Name\r\n  > Ada \x1b[K\x1b]2;t\x1b\\\r\n\x1b(B┃ Mail\n\x1b[6Dé\x1b[3b"

func TestScreenReplaysARedraw(t *testing.T) {
	want := "┃ Name\n  Name\n  > Ada \n┃ Mail\néééé"
	if got := render(redraw); got != want {
		t.Errorf("screen:\n%q\nwant\n%q", got, want)
	}
}

// Output arrives in reads that cut escape sequences and characters
// anywhere: fed in two pieces, cut at every byte, or a byte at a time, it
// shows what it shows fed at once.
func TestScreenFedInPieces(t *testing.T) {
	want := render(redraw)
	for i := range len(redraw) {
		s := newScreen()
		s.feed([]byte(redraw[:i]))
		s.feed([]byte(redraw[i:]))
		if got := s.text(); got != want {
			t.Fatalf("cut at byte %d (%q | %q):\n%q\nwant\n%q", i, redraw[:i], redraw[i:], got, want)
		}
	}
	s := newScreen()
	for i := range len(redraw) {
		s.feed([]byte{redraw[i]})
	}
	if got := s.text(); got != want {
		t.Errorf("a byte at a time:\n%q\nwant\n%q", got, want)
	}
}

// Whatever a program writes, however the reads cut it, the screen is the
// same.
func FuzzScreenFedInPieces(f *testing.F) {
	f.Add(redraw, 7)
	f.Add("\x1b[", 1)
	f.Add("a\x1b]0;x\x1b", 3)
	f.Add("\xe2\x94", 1)
	f.Fuzz(func(t *testing.T, out string, cut int) {
		if cut < 0 || cut > len(out) {
			t.Skip()
		}
		s := newScreen()
		s.feed([]byte(out[:cut]))
		s.feed([]byte(out[cut:]))
		if got, want := s.text(), render(out); got != want {
			t.Errorf("cut at byte %d:\n%q\nwant\n%q", cut, got, want)
		}
	})
}
