package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// readAll parses src to the end and returns the events and the final error
// (nil for a clean io.EOF).
func readAll(src io.Reader, max int) ([]Event, string, error) {
	r := NewReader(src)
	r.SetMaxEventSize(max)
	var evs []Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs, r.LastEventID(), nil
		}
		if err != nil {
			return evs, r.LastEventID(), err
		}
		evs = append(evs, ev)
	}
}

func eventsEqual(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eventEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// eventEqual compares events; nil and empty Data are equal because the
// format cannot tell them apart once written.
func eventEqual(a, b Event) bool {
	return a.Type == b.Type && bytes.Equal(a.Data, b.Data) &&
		a.HasID == b.HasID && a.ID == b.ID &&
		a.HasRetry == b.HasRetry && a.Retry == b.Retry
}

func fmtEvents(evs []Event) string {
	var sb strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&sb, "{Type:%q Data:%q ID:%q/%v Retry:%v/%v} ", e.Type, e.Data, e.ID, e.HasID, e.Retry, e.HasRetry)
	}
	return sb.String()
}

func data(s string) Event { return Event{Data: []byte(s)} }

var formatCases = []struct {
	name   string
	in     string
	want   []Event
	lastID string
}{
	{"single data", "data: hello\n\n", []Event{data("hello")}, ""},
	{"multi-line data joined with LF", "data: a\ndata: b\ndata: c\n\n", []Event{data("a\nb\nc")}, ""},
	{"event type", "event: endpoint\ndata: /message?sessionId=1\n\n",
		[]Event{{Type: "endpoint", Data: []byte("/message?sessionId=1")}}, ""},
	{"explicit message type", "event: message\ndata: {}\n\n", []Event{{Type: "message", Data: []byte("{}")}}, ""},
	{"type does not carry over", "event: x\ndata: 1\n\ndata: 2\n\n",
		[]Event{{Type: "x", Data: []byte("1")}, data("2")}, ""},
	{"id persists as last id", "id: 1\ndata: a\n\ndata: b\n\n",
		[]Event{{ID: "1", HasID: true, Data: []byte("a")}, data("b")}, "1"},
	{"id with NUL ignored", "id: 7\ndata: a\n\nid: a\x00b\ndata: x\n\n",
		[]Event{{ID: "7", HasID: true, Data: []byte("a")}, data("x")}, "7"},
	{"empty id resets", "id: 5\ndata: a\n\nid\ndata: b\n\n",
		[]Event{{ID: "5", HasID: true, Data: []byte("a")}, {HasID: true, Data: []byte("b")}}, ""},
	{"retry digits", "retry: 500\ndata:\n\n", []Event{{Retry: 500 * time.Millisecond, HasRetry: true, Data: []byte{}}}, ""},
	{"retry with unit ignored", "retry: 5s\ndata: x\n\n", []Event{data("x")}, ""},
	{"retry negative ignored", "retry: -1\ndata: x\n\n", []Event{data("x")}, ""},
	{"retry fraction ignored", "retry: 1.5\ndata: x\n\n", []Event{data("x")}, ""},
	{"retry empty ignored", "retry:\ndata: x\n\n", []Event{data("x")}, ""},
	{"retry overflow ignored", "retry: 99999999999999999999\ndata: x\n\n", []Event{data("x")}, ""},
	{"retry alone is an event", "retry: 10\n\n", []Event{{Retry: 10 * time.Millisecond, HasRetry: true}}, ""},
	{"comments ignored", ": keepalive\n\n: another\ndata: x\n: inside\n\n", []Event{data("x")}, ""},
	{"field without colon", "data\n\n", []Event{data("")}, ""},
	{"two bare data lines", "data\ndata\n\n", []Event{data("\n")}, ""},
	{"only one leading space stripped", "data:  two\n\n", []Event{data(" two")}, ""},
	{"no space after colon", "data:nospace\n\n", []Event{data("nospace")}, ""},
	{"colon inside value", "data: a:b\n\n", []Event{data("a:b")}, ""},
	{"CR line ends", "data: a\rdata: b\r\r", []Event{data("a\nb")}, ""},
	{"CRLF line ends", "data: a\r\ndata: b\r\n\r\n", []Event{data("a\nb")}, ""},
	{"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\ndata: d\n\n", []Event{data("a\nb\nc"), data("d")}, ""},
	{"CR CR is two line ends", "data: a\r\rdata: b\n\n", []Event{data("a"), data("b")}, ""},
	{"leading BOM stripped", "\xEF\xBB\xBFdata: x\n\n", []Event{data("x")}, ""},
	{"only the first BOM stripped", "\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n", nil, ""},
	{"partial BOM is not a BOM", "\xEF\xBBdata: x\n\n", nil, ""},
	{"BOM-only stream", "\xEF\xBB\xBF", nil, ""},
	{"priming event kept with empty data", "id: x\nretry: 500\ndata: \n\n",
		[]Event{{ID: "x", HasID: true, Retry: 500 * time.Millisecond, HasRetry: true, Data: []byte{}}}, "x"},
	{"final event without blank line", "data: a\n\ndata: last", []Event{data("a"), data("last")}, ""},
	{"final event with one LF", "data: last\n", []Event{data("last")}, ""},
	{"final id without blank line", "id: 9", []Event{{ID: "9", HasID: true}}, "9"},
	{"unknown fields ignored", "foo: bar\n\nfoo: bar\ndata: x\n\n", []Event{data("x")}, ""},
	{"field names are case-sensitive", "Data: x\n\n", nil, ""},
	{"type only", "event: ping\n\n", []Event{{Type: "ping"}}, ""},
	{"empty stream", "", nil, ""},
	{"blank lines only", "\n\r\n\r\n\n", nil, ""},
	{"space before colon is part of the name", "data : x\n\n", nil, ""},
	{"JSON-RPC message", "event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		[]Event{{Type: "message", ID: "1", HasID: true, Data: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}}, "1"},
}

func TestReaderFormat(t *testing.T) {
	for _, tc := range formatCases {
		t.Run(tc.name, func(t *testing.T) {
			check := func(how string, src io.Reader) {
				t.Helper()
				got, lastID, err := readAll(src, 0)
				if err != nil {
					t.Fatalf("%s: unexpected error %v", how, err)
				}
				if !eventsEqual(got, tc.want) {
					t.Errorf("%s: events\n got %s\nwant %s", how, fmtEvents(got), fmtEvents(tc.want))
				}
				if lastID != tc.lastID {
					t.Errorf("%s: LastEventID = %q, want %q", how, lastID, tc.lastID)
				}
			}
			check("whole", strings.NewReader(tc.in))
			check("one byte at a time", iotest.OneByteReader(strings.NewReader(tc.in)))
			check("with data+EOF reads", iotest.DataErrReader(strings.NewReader(tc.in)))
			// Every split point, so that buffer boundaries fall everywhere,
			// including between the CR and LF of a CRLF.
			for i := 1; i < len(tc.in); i++ {
				check(fmt.Sprintf("split at %d", i), &chunkReader{chunks: []string{tc.in[:i], tc.in[i:]}})
			}
		})
	}
}

// chunkReader returns each chunk in its own Read call.
type chunkReader struct{ chunks []string }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	if c.chunks[0] == "" {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

// stallReader hands out its chunks and then reports errStall instead of
// blocking, so a test can prove that the reader did not wait for input it
// does not need.
type stallReader struct{ chunks []string }

var errStall = errors.New("reader asked for more input than it needed")

func (s *stallReader) Read(p []byte) (int, error) {
	if len(s.chunks) == 0 {
		return 0, errStall
	}
	n := copy(p, s.chunks[0])
	s.chunks[0] = s.chunks[0][n:]
	if s.chunks[0] == "" {
		s.chunks = s.chunks[1:]
	}
	return n, nil
}

func TestReaderDispatchesWithoutWaiting(t *testing.T) {
	// A live stream stays open after an event; Next must return the event
	// from the bytes it has, even when the blank line ends in a bare CR
	// (whose possible LF has not arrived).
	for _, in := range []string{"data: x\n\n", "data: x\r\r", "data: x\r\n\r\n", "\xEF\xBB\xBFdata: x\n\n"} {
		r := NewReader(&stallReader{chunks: []string{in}})
		ev, err := r.Next()
		if err != nil || string(ev.Data) != "x" {
			t.Errorf("%q: Next = %q, %v; want the event without reading further", in, ev.Data, err)
		}
		if _, err := r.Next(); !errors.Is(err, errStall) {
			t.Errorf("%q: second Next error = %v, want the source's error", in, err)
		}
	}
}

func TestReaderSourceErrorDropsPartialEvent(t *testing.T) {
	src := io.MultiReader(strings.NewReader("data: whole\n\ndata: trunc"), iotest.ErrReader(io.ErrUnexpectedEOF))
	r := NewReader(src)
	ev, err := r.Next()
	if err != nil || string(ev.Data) != "whole" {
		t.Fatalf("first Next = %q, %v", ev.Data, err)
	}
	for range 2 { // sticky
		ev, err = r.Next()
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Next = %q, %v; want io.ErrUnexpectedEOF and no truncated event", ev.Data, err)
		}
	}
}

func TestReaderEOFIsSticky(t *testing.T) {
	r := NewReader(strings.NewReader("data: a"))
	if ev, err := r.Next(); err != nil || string(ev.Data) != "a" {
		t.Fatalf("Next = %q, %v", ev.Data, err)
	}
	for range 2 {
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("Next after end = %v, want io.EOF", err)
		}
	}
}

func TestReaderNoProgress(t *testing.T) {
	r := NewReader(zeroReader{})
	if _, err := r.Next(); !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("Next = %v, want io.ErrNoProgress", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderMaxEventSize(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		max     int
		wantErr bool
		line    int64
	}{
		{"line at the limit", "data: " + strings.Repeat("x", 4) + "\n\n", 10, false, 0},
		{"long line", "data: " + strings.Repeat("x", 100) + "\n\n", 10, true, 1},
		{"long unterminated line", "data: " + strings.Repeat("x", 100), 10, true, 1},
		{"long line split over reads", ": ok\ndata: " + strings.Repeat("x", 10000) + "\n\n", 100, true, 2},
		{"many data lines", strings.Repeat("data: 12345\n", 5) + "\n", 20, true, 4},
		{"limit resets per event", strings.Repeat("data: 12345\n\n", 50), 20, false, 0},
		{"long comment line", ":" + strings.Repeat("k", 50) + "\n", 10, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readAll(strings.NewReader(tc.in), tc.max)
			if !tc.wantErr {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var fe *FormatError
			if !errors.As(err, &fe) || !errors.Is(err, ErrEventTooLarge) {
				t.Fatalf("error = %v, want a *FormatError wrapping ErrEventTooLarge", err)
			}
			if fe.Line != tc.line {
				t.Errorf("error line = %d, want %d (%v)", fe.Line, tc.line, err)
			}
			if !strings.Contains(err.Error(), fmt.Sprint(tc.max)) {
				t.Errorf("error %q does not name the limit", err)
			}
		})
	}
}

func TestReaderBoundedMemoryUnderLimit(t *testing.T) {
	// An endless line must fail once it passes the limit instead of
	// buffering forever.
	r := NewReader(io.MultiReader(strings.NewReader("data: "), endless{}))
	r.SetMaxEventSize(1 << 16)
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("Next = %v, want ErrEventTooLarge", err)
	}
	if len(r.buf) > 1<<18 {
		t.Errorf("buffer grew to %d bytes for a 64 KiB limit", len(r.buf))
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestReaderReturnsIndependentData(t *testing.T) {
	r := NewReader(strings.NewReader("data: first\n\ndata: second\n\n"))
	a, _ := r.Next()
	b, _ := r.Next()
	if string(a.Data) != "first" || string(b.Data) != "second" {
		t.Fatalf("events share storage: %q %q", a.Data, b.Data)
	}
}
