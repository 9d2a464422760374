package sse

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAllView reads src with r (Reset first) through NextView, copying
// each event's data before the next call, as a borrowing caller must.
func readAllView(r *Reader, src io.Reader, max int) ([]Event, string, error) {
	r.Reset(src)
	r.SetMaxEventSize(max)
	var evs []Event
	for {
		ev, err := r.NextView()
		if err == io.EOF {
			return evs, r.LastEventID(), nil
		}
		if err != nil {
			return evs, r.LastEventID(), err
		}
		ev.Data = bytes.Clone(ev.Data)
		evs = append(evs, ev)
	}
}

// A data line whose closing blank line comes in a later read must survive
// the buffer's compaction, which the next read then overwrites.
func TestNextViewSurvivesRefill(t *testing.T) {
	first := strings.Repeat("a", 3000)
	second := strings.Repeat("b", 2000)
	src := &chunkReader{chunks: []string{
		"event: message\ndata: " + first + "\n",
		"\ndata: " + second + "\n\n",
	}}
	r := NewReader(src)
	ev, err := r.NextView()
	if err != nil || string(ev.Data) != first {
		t.Fatalf("first event: %q (%d bytes), %v", clipped(ev.Data), len(ev.Data), err)
	}
	ev, err = r.NextView()
	if err != nil || string(ev.Data) != second {
		t.Fatalf("second event: %q (%d bytes), %v", clipped(ev.Data), len(ev.Data), err)
	}
}

func clipped(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// A reply of one event with one data line, read whole, costs no
// allocation once the Reader's buffer exists: the data is not copied.
func TestNextViewOneLineEventAllocatesNothing(t *testing.T) {
	stream := []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
	src := bytes.NewReader(stream)
	r := NewReader(src)
	allocs := testing.AllocsPerRun(100, func() {
		src.Reset(stream)
		r.Reset(src)
		ev, err := r.NextView()
		if err != nil || !bytes.Equal(ev.Data, stream[len("event: message\ndata: "):len(stream)-2]) {
			t.Fatalf("event %q, %v", ev.Data, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per reply, want 0", allocs)
	}
}

// Reset forgets everything of the last stream (last id, a pending event,
// a sticky error, the size limit) and keeps no buffer over 64 KiB.
func TestResetForgetsTheLastStream(t *testing.T) {
	r := NewReader(strings.NewReader("id: 7\ndata: x\n\ndata: half"))
	r.SetMaxEventSize(1)
	if _, err := r.Next(); err == nil {
		t.Fatal("the size limit did not apply")
	}
	r.Reset(strings.NewReader("data: " + strings.Repeat("y", 100<<10) + "\n\n"))
	ev, err := r.NextView()
	if err != nil || len(ev.Data) != 100<<10 || ev.HasID || r.LastEventID() != "" {
		t.Fatalf("after Reset: %d bytes, id %q (%v), %v", len(ev.Data), r.LastEventID(), ev.HasID, err)
	}
	r.Reset(nil)
	if cap(r.buf) > maxKeptBuffer || cap(r.data) > maxKeptBuffer || r.src != nil {
		t.Fatalf("Reset kept a buffer of %d bytes and data of %d", cap(r.buf), cap(r.data))
	}
}

// NextView with a reused Reader reads what Next reads from a fresh one,
// however the input is split into reads.
func FuzzSSEReaderView(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), []byte("data: left over\nid: 9\n\ndata: and a half"))
	}
	f.Fuzz(func(t *testing.T, in, before []byte) {
		want, wantID, wantErr := readAll(bytes.NewReader(in), 0)
		r := NewReader(nil)
		for _, split := range []func(io.Reader) io.Reader{
			func(r io.Reader) io.Reader { return r },
			iotest.OneByteReader,
			iotest.HalfReader,
			iotest.DataErrReader,
		} {
			// A reader that read another stream first.
			_, _, _ = readAllView(r, split(bytes.NewReader(before)), 0)
			got, gotID, err := readAllView(r, split(bytes.NewReader(in)), 0)
			if (err == nil) != (wantErr == nil) || !eventsEqual(got, want) || gotID != wantID {
				t.Fatalf("NextView differs:\n got %s %q %v\nwant %s %q %v", fmtEvents(got), gotID, err, fmtEvents(want), wantID, wantErr)
			}
		}
		limited, _, lerr := readAll(bytes.NewReader(in), 16)
		got, _, err := readAllView(r, iotest.OneByteReader(bytes.NewReader(in)), 16)
		if (err == nil) != (lerr == nil) || !eventsEqual(got, limited) {
			t.Fatalf("limited NextView differs:\n got %s %v\nwant %s %v", fmtEvents(got), err, fmtEvents(limited), lerr)
		}
	})
}
