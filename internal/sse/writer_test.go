package sse

import (
	"bytes"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriterFormat(t *testing.T) {
	tests := []struct {
		name string
		ev   Event
		want string
	}{
		{"data only", data("hello"), "data: hello\n\n"},
		{"empty event still has a data line", Event{}, "data:\n\n"},
		{"multi-line data", data("a\n\nb"), "data: a\ndata:\ndata: b\n\n"},
		{"trailing newline in data", data("a\n"), "data: a\ndata:\n\n"},
		{"leading space kept by the extra space", data(" x"), "data:  x\n\n"},
		{"priming event", Event{ID: "x", HasID: true, Retry: 500 * time.Millisecond, HasRetry: true},
			"id: x\nretry: 500\ndata:\n\n"},
		{"all fields", Event{Type: "message", ID: "7", HasID: true, Data: []byte("{}")},
			"event: message\nid: 7\ndata: {}\n\n"},
		{"empty id resets", Event{HasID: true, Data: []byte("x")}, "id:\ndata: x\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := NewWriter(&buf).WriteEvent(tc.ev); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("wrote %q, want %q", buf.String(), tc.want)
			}
			got, _, err := readAll(&buf, 0)
			if err != nil || len(got) != 1 || !eventEqual(got[0], tc.ev) {
				t.Errorf("read back %s, %v; want %s", fmtEvents(got), err, fmtEvents([]Event{tc.ev}))
			}
		})
	}
}

func TestWriterRejectsUnrepresentable(t *testing.T) {
	bad := map[string]Event{
		"LF in type":     {Type: "a\nb"},
		"CR in type":     {Type: "a\rb"},
		"LF in id":       {ID: "a\nb", HasID: true},
		"NUL in id":      {ID: "a\x00b", HasID: true},
		"CR in data":     {Data: []byte("a\rb")},
		"negative retry": {Retry: -time.Second, HasRetry: true},
	}
	for name, ev := range bad {
		var buf bytes.Buffer
		if err := NewWriter(&buf).WriteEvent(ev); err == nil {
			t.Errorf("%s: WriteEvent succeeded, wrote %q", name, buf.String())
		} else if buf.Len() != 0 {
			t.Errorf("%s: failed but wrote %q", name, buf.String())
		}
	}
	// A bad ID is fine when HasID is false: it is not written.
	if err := NewWriter(io.Discard).WriteEvent(Event{ID: "a\nb"}); err != nil {
		t.Errorf("unused ID rejected: %v", err)
	}
}

func TestWriterComment(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteComment("keepalive"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteComment("two\r\nlines"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteComment(""); err != nil {
		t.Fatal(err)
	}
	if want := ": keepalive\n: two\n: lines\n:\n"; buf.String() != want {
		t.Fatalf("wrote %q, want %q", buf.String(), want)
	}
	if evs, _, err := readAll(&buf, 0); err != nil || len(evs) != 0 {
		t.Fatalf("comments parsed as %s, %v", fmtEvents(evs), err)
	}
}

func TestWriterFlushes(t *testing.T) {
	rec := httptest.NewRecorder()
	w := NewWriter(rec)
	if err := w.WriteEvent(data("x")); err != nil {
		t.Fatal(err)
	}
	if !rec.Flushed {
		t.Error("event not flushed to the http.ResponseWriter")
	}
	rec2 := httptest.NewRecorder()
	if err := NewWriter(rec2).WriteComment("k"); err != nil {
		t.Fatal(err)
	}
	if !rec2.Flushed {
		t.Error("comment not flushed")
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

func TestWriterReportsWriteError(t *testing.T) {
	want := fmt.Errorf("boom")
	if err := NewWriter(failWriter{want}).WriteEvent(data("x")); err != want {
		t.Fatalf("WriteEvent = %v, want the writer's error", err)
	}
}

func TestWriterConcurrentEventsDoNotInterleave(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				payload := strings.Repeat(fmt.Sprintf("g%d-%d;", g, i), 20)
				if err := w.WriteEvent(Event{Type: "message", Data: []byte(payload + "\n" + payload)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); pw.Close() }()
	evs, _, err := readAll(pr, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != writers*each {
		t.Fatalf("read %d events, want %d", len(evs), writers*each)
	}
	for _, ev := range evs {
		a, b, ok := strings.Cut(string(ev.Data), "\n")
		if !ok || a != b || ev.Type != "message" {
			t.Fatalf("interleaved event %q", ev.Data)
		}
	}
}
