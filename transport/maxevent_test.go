package transport

import "testing"

// MaxEventSize means the same on Streamable HTTP and legacy SSE: zero is
// the default bound, negative is none.
func TestMaxEventSizeOption(t *testing.T) {
	for _, tc := range []struct{ in, want int }{
		{0, int(DefaultMaxBodySize)},
		{-1, 0},
		{4096, 4096},
	} {
		if got := maxEventSize(tc.in); got != tc.want {
			t.Errorf("maxEventSize(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
