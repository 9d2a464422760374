package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReaderScansLongLineOnce: a line that arrives in many small reads is
// searched for its end once, not again from its start after every read (a
// hostile server's endless data: line cost quadratic CPU that way).
func TestReaderScansLongLineOnce(t *testing.T) {
	const n = 256 << 10
	in := "data: " + strings.Repeat("x", n) + "\n\n"
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
	ev, err := r.Next()
	if err != nil || len(ev.Data) != n {
		t.Fatalf("Next = %d bytes, %v; want %d bytes", len(ev.Data), err, n)
	}
	if r.searched > 2*int64(len(in)) {
		t.Fatalf("searched %d bytes for line ends in a %d-byte stream; the scan is not incremental", r.searched, len(in))
	}
}

// TestReaderLongLineWithCRLF: the incremental scan still finds a CR that
// arrives in a later read than the start of its line, and the LF after it.
func TestReaderLongLineWithCRLF(t *testing.T) {
	long := strings.Repeat("y", 10000)
	in := "data: " + long + "\r\ndata: b\r\n\r\n"
	r := NewReader(&chunkReader{chunks: splitEvery(in, 7)})
	ev, err := r.Next()
	if err != nil || string(ev.Data) != long+"\nb" {
		t.Fatalf("Next = %.20q, %v", ev.Data, err)
	}
}

func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// FuzzSSELongLines repeats a fuzzed piece into long lines, delivered in
// fuzzed read sizes: the events must not depend on the read sizes, and a
// size limit must only ever end the stream with ErrEventTooLarge.
func FuzzSSELongLines(f *testing.F) {
	f.Add([]byte("data: abc"), uint16(5000), uint8(3), uint16(4096))
	f.Add([]byte("x"), uint16(60000), uint8(1), uint16(100))
	f.Add([]byte("\r"), uint16(300), uint8(2), uint16(0))
	f.Add([]byte("id: 1\r\n"), uint16(1000), uint8(17), uint16(70))
	f.Fuzz(func(t *testing.T, piece []byte, repeat uint16, step uint8, limit uint16) {
		if len(piece) == 0 || step == 0 {
			return
		}
		line := bytes.Repeat(piece, int(repeat))
		in := append(append([]byte("data: "), line...), "\n\ndata: end\n\n"...)
		want, wantID, err := readAll(bytes.NewReader(in), 0)
		if err != nil {
			t.Fatalf("in-memory read: %v", err)
		}
		got, gotID, err := readAll(&stepReader{b: in, step: int(step)}, 0)
		if err != nil || !eventsEqual(got, want) || gotID != wantID {
			t.Fatalf("read in steps of %d differs: %v", step, err)
		}
		limited, _, err := readAll(&stepReader{b: in, step: int(step)}, int(limit))
		if err != nil && !errors.Is(err, ErrEventTooLarge) {
			t.Fatalf("limited read error %v", err)
		}
		if len(limited) > len(want) || !eventsEqual(limited, want[:len(limited)]) {
			t.Fatalf("limited read disagrees: %s vs %s", fmtEvents(limited), fmtEvents(want))
		}
	})
}

// stepReader hands out b in reads of at most step bytes.
type stepReader struct {
	b    []byte
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.step)], s.b)
	s.b = s.b[n:]
	return n, nil
}
