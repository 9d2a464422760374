package transport

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// readLimited returns the whole body whatever Content-Length announced,
// and refuses a body over the limit however it arrives.
func TestReadLimited(t *testing.T) {
	body := strings.Repeat("0123456789", 10000) // 100,000 bytes
	for _, tc := range []struct {
		name        string
		size, limit int64
		wantErr     bool
	}{
		{"announced, no limit", int64(len(body)), -1, false},
		{"unknown size, no limit", -1, -1, false},
		{"announced too small", 10, -1, false},
		{"announced too large", 1 << 20, -1, false},
		{"exactly at the limit", int64(len(body)), int64(len(body)), false},
		{"unknown size at the limit", -1, int64(len(body)), false},
		{"one over the limit", -1, int64(len(body)) - 1, true},
		{"announced over the limit", int64(len(body)), 1000, true},
		{"zero limit", -1, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := iotest.HalfReader(bytes.NewReader([]byte(body)))
			got, err := readLimited(r, tc.size, tc.limit)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "exceeds the limit") {
					t.Fatalf("err = %v, want the limit error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != body {
				t.Fatalf("read %d bytes, want %d", len(got), len(body))
			}
		})
	}
	got, err := readLimited(strings.NewReader(""), 0, 0)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty body: %q, %v", got, err)
	}
	if _, err := readLimited(iotest.ErrReader(iotest.ErrTimeout), -1, -1); err != iotest.ErrTimeout {
		t.Fatalf("a failing body: %v", err)
	}
}
