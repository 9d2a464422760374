package wirerec

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRoundTrip(t *testing.T) {
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	in := []Entry{
		{Time: at, Direction: Send, Transport: "stdio", Message: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)},
		{Time: at.Add(time.Millisecond), Direction: Receive, Transport: "stdio", Message: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)},
	}
	var b []byte
	for _, e := range in {
		var err error
		if b, err = AppendLine(b, e); err != nil {
			t.Fatal(err)
		}
	}
	out, err := Decode(bytes.NewReader(append(b, '\n'))) // a blank line is skipped
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || !out[1].Time.Equal(in[1].Time) || out[0].Direction != Send || string(out[1].Message) != string(in[1].Message) {
		t.Fatalf("decoded %+v", out)
	}
}

func TestDecodeNamesTheBadLine(t *testing.T) {
	good := `{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"http","message":{"jsonrpc":"2.0","method":"x"}}`
	for _, tc := range []struct{ line, want string }{
		{`not json`, "not a recording entry"},
		{`{"time":"2026-12-03T09:00:00Z","direction":"sideways","transport":"http","message":{"jsonrpc":"2.0","method":"x"}}`, `direction "sideways"`},
		{`{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"http"}`, "no message"},
		{`{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"http","message":{"id":1}}`, "message:"},
		{`{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"http","message":{"jsonrpc":"2.0","method":"x"},"headers":{}}`, "unknown field"},
		{good + good, "more than one JSON value"},
	} {
		_, err := Decode(strings.NewReader(good + "\n" + tc.line + "\n"))
		if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want line 2 and %q", tc.line, err, tc.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"stdio","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}` + "\n"))
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte(`{"direction":"receive","message":[{"jsonrpc":"2.0","id":1,"result":{}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := Decode(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What decodes encodes again and decodes to the same entries.
		var b []byte
		for _, e := range entries {
			if b, err = AppendLine(b, e); err != nil {
				t.Fatalf("re-encoding %+v: %v", e, err)
			}
		}
		again, err := Decode(bytes.NewReader(b))
		if err != nil || len(again) != len(entries) {
			t.Fatalf("re-decoding: %d entries, %v; want %d", len(again), err, len(entries))
		}
	})
}
