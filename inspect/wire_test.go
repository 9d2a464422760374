package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/wirerec"
)

func line(t testing.TB, dir wirerec.Direction, server, msg string, at time.Time) []byte {
	b, err := wirerec.AppendLine(nil, wirerec.Entry{Time: at, Direction: dir, Transport: server, Message: json.RawMessage(msg)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Answers pair with their requests per server and direction, with the
// latency between them; a server->client request pairs the other way.
func TestWireCorrelates(t *testing.T) {
	w := NewWire(0, 0)
	t0 := time.Unix(1000, 0)
	w.Write(line(t, wirerec.Send, "a", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, t0))
	w.Write(line(t, wirerec.Send, "b", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, t0))
	w.Write(line(t, wirerec.Receive, "a", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}`, t0))
	w.Write(line(t, wirerec.Receive, "b", `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`, t0.Add(5*time.Millisecond)))
	w.Write(line(t, wirerec.Receive, "a", `{"jsonrpc":"2.0","id":1,"result":{}}`, t0.Add(20*time.Millisecond)))
	w.Write(line(t, wirerec.Send, "a", `{"jsonrpc":"2.0","id":1,"result":{}}`, t0.Add(30*time.Millisecond)))
	w.Write(line(t, wirerec.Receive, "a", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, t0))
	got := w.Entries()
	want := []struct {
		kind, method string
		replyTo      int64
		latency      float64
	}{
		{"request", "tools/list", 0, 0}, {"request", "ping", 0, 0}, {"request", "sampling/createMessage", 0, 0},
		{"error", "ping", 2, 5}, {"result", "tools/list", 1, 20}, {"result", "sampling/createMessage", 3, 30},
		{"notification", "notifications/message", 0, 0},
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i, e := range got {
		if e.Seq != int64(i+1) || e.Kind != want[i].kind || e.Method != want[i].method || e.ReplyTo != want[i].replyTo || e.LatencyMS != want[i].latency {
			t.Errorf("entry %d: %+v, want %+v", i, *e, want[i])
		}
	}
}

// The buffer keeps the newest entries within its bounds; a line split over
// writes is joined, and garbage is dropped without harm.
func TestWireBounded(t *testing.T) {
	w := NewWire(3, 0)
	for i := range 10 {
		l := line(t, wirerec.Send, "a", fmt.Sprintf(`{"jsonrpc":"2.0","method":"n%d"}`, i), time.Unix(0, 0))
		w.Write(l[:5])
		w.Write(l[5:])
	}
	w.Write([]byte("not json\n"))
	got := w.Entries()
	if len(got) != 3 || got[0].Method != "n7" || got[2].Method != "n9" || got[2].Seq != 10 {
		t.Fatalf("kept %d: first %+v", len(got), got[0])
	}
	small := NewWire(0, 300)
	for range 10 {
		small.Write(line(t, wirerec.Send, "a", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, time.Unix(0, 0)))
	}
	if n := len(small.Entries()); n == 0 || n > 3 {
		t.Fatalf("byte bound kept %d entries", n)
	}
}

// Whatever a recorder line holds (a peer's message, in the end), the
// timeline neither panics nor keeps an entry without its message.
func FuzzWireWrite(f *testing.F) {
	f.Add(line(f, wirerec.Send, "a", `{"jsonrpc":"2.0","id":1,"method":"x"}`, time.Unix(0, 0)))
	f.Add([]byte(`{"time":"2026-01-01T00:00:00Z","direction":"receive","transport":"a","message":{"id":[1],"result":null}}` + "\n"))
	f.Add([]byte("\n\n{}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		w := NewWire(4, 1<<16)
		w.Write(b)
		w.Write(append(b, '\n'))
		for _, e := range w.Entries() {
			if len(e.Message) == 0 || e.Kind == "" || e.Size != len(e.Message) {
				t.Fatalf("entry %+v", *e)
			}
			if _, err := json.Marshal(e); err != nil {
				t.Fatalf("entry does not encode: %v", err)
			}
		}
	})
}

// An entry keeps its message once, inside its recording line, so that
// the byte bound (which counts the lines) is what the buffer holds.
func TestWireEntryKeepsItsMessageOnce(t *testing.T) {
	w := NewWire(0, 0)
	w.Write(line(t, wirerec.Receive, "a", `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"a long log line"}}`, time.Unix(1000, 0)))
	e := w.Entries()[0]
	i := bytes.Index(e.line, e.Message)
	if i < 0 || &e.line[i] != &e.Message[0] {
		t.Error("the entry holds a copy of its message beside its line")
	}
}
