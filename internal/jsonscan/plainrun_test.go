package jsonscan

import (
	"bytes"
	"testing"
)

// plainRunBytewise is PlainRun's meaning, one byte at a time.
func plainRunBytewise(b []byte, i int) int {
	for i < len(b) && !stringStop[b[i]] {
		i++
	}
	return i
}

// PlainRun finds the first stop inside a word even when the bytes after
// it would be flagged by a borrow of the word-wide arithmetic: a control
// byte followed by a space, a quote by '#' and a backslash by ']' (each one
// above the stop), and bytes of UTF-8 (0x80 and up) around it.
func TestPlainRunFindsTheFirstStop(t *testing.T) {
	stops := []string{"\x00", "\x1f", "\x1f ", "\"", "\"#", "\\", "\\]", "\x00\x01 !"}
	fills := []byte{'a', ' ', '!', '#', ']', 0x7f, 0x80, 0xc3, 0xff}
	for _, stop := range stops {
		for _, fill := range fills {
			for at := range 20 {
				for _, tail := range []int{0, 1, 9} {
					b := append(append(bytes.Repeat([]byte{fill}, at), stop...), bytes.Repeat([]byte{fill}, tail)...)
					for from := range min(at+1, 9) {
						if got, want := PlainRun(b, from), plainRunBytewise(b, from); got != want {
							t.Fatalf("PlainRun(%q, %d) = %d, want %d", b, from, got, want)
						}
						checkASCII(t, b, from)
					}
				}
			}
		}
	}
}

// checkASCII holds PlainRunASCII to PlainRun's end, and to never calling
// a run with a byte of 0x80 or above ASCII (the other way round is allowed:
// bytes after the end, in the same word, may say no).
func checkASCII(t *testing.T, b []byte, from int) {
	t.Helper()
	end, ascii := PlainRunASCII(b, from)
	if want := plainRunBytewise(b, from); end != want {
		t.Fatalf("PlainRunASCII(%q, %d) ends at %d, want %d", b, from, end, want)
	}
	nonASCII := bytes.ContainsFunc(b[from:end], func(r rune) bool { return r >= 0x80 })
	if ascii && nonASCII {
		t.Fatalf("PlainRunASCII(%q, %d) says ASCII", b, from)
	}
	if !ascii && !nonASCII && end+8 <= len(b) && !bytes.ContainsFunc(b[end:end+8], func(r rune) bool { return r >= 0x80 }) {
		t.Fatalf("PlainRunASCII(%q, %d) says not ASCII", b, from)
	}
}

// Input with no stop at all runs to its end, however it splits into words.
func FuzzPlainRun(f *testing.F) {
	f.Add([]byte("plain text, then a \"quote"), 0)
	f.Add([]byte("\x1f \"#\\]"), 3)
	f.Fuzz(func(t *testing.T, b []byte, from int) {
		if from < 0 || from > len(b) {
			return
		}
		if got, want := PlainRun(b, from), plainRunBytewise(b, from); got != want {
			t.Fatalf("PlainRun(%q, %d) = %d, want %d", b, from, got, want)
		}
		checkASCII(t, b, from)
	})
}
