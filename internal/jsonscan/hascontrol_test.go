package jsonscan

import (
	"slices"
	"testing"
)

func hasControlByBytes(b []byte) bool {
	return slices.ContainsFunc(b, func(c byte) bool { return c < 0x20 })
}

// TestHasControlEveryPlace: one control byte in every place of every
// length up to five words, beside the bytes a borrow could confuse
// (0x20, the first byte that is not one, and bytes with the high bit),
// and none at all: HasControl agrees with a byte-by-byte look.
func TestHasControlEveryPlace(t *testing.T) {
	for _, fill := range []byte{' ', 'a', 0x7f, 0x80, 0xff} {
		for n := range 41 {
			b := make([]byte, n)
			for i := range b {
				b[i] = fill
			}
			if HasControl(b) {
				t.Fatalf("%d bytes of %#x: a control byte found", n, fill)
			}
			for i := range n {
				for _, ctl := range []byte{0, 0x1f, '\n'} {
					b[i] = ctl
					if !HasControl(b) {
						t.Fatalf("%d bytes of %#x with %#x at %d: not found", n, fill, ctl, i)
					}
				}
				b[i] = fill
			}
		}
	}
}

func FuzzHasControl(f *testing.F) {
	for _, s := range []string{"", "a", "\x1f", "0123456789abcde\x00", "0123456789abcdef\x1f", " \x20\x21\x7f\x80\xff!!!!!!!!!!!!", "\x00\x20\x20\x20\x20\x20\x20\x20\x20"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := HasControl(b), hasControlByBytes(b); got != want {
			t.Fatalf("HasControl(%q) = %v, want %v", b, got, want)
		}
	})
}
