package sse

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// Real MCP streams: a Streamable HTTP reply with a priming event, server
// notifications and requests before the response, keep-alives, a legacy
// endpoint event, CRLF line ends and an unterminated last event.
var fuzzSeeds = []string{
	"id: x\nretry: 500\ndata: \n\n",
	"id: 0\nretry: 3000\ndata:\n\n" +
		"event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":50,\"total\":100}}\n\n" +
		": keep-alive\n\n" +
		"event: message\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\",\"params\":{}}\n\n" +
		"event: message\nid: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"3\"}]}}\n\n",
	"event: endpoint\ndata: /message?sessionId=0f2c\n\n",
	"event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n\r\n",
	"event: message\ndata: [{\"jsonrpc\":\"2.0\",\"method\":\"a\"},\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}]\n\n",
	"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
	"\xEF\xBB\xBFretry: 10\rid\r:ping\r\r",
	"id: a\x00b\ndata: x\n\ndata\n\n",
}

func FuzzSSEReader(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want, wantID, err := readAll(bytes.NewReader(in), 0)
		if err != nil {
			t.Fatalf("error on an in-memory stream: %v", err)
		}
		// The result must not depend on how the input is split into reads.
		got, gotID, err := readAll(iotest.OneByteReader(bytes.NewReader(in)), 0)
		if err != nil || !eventsEqual(got, want) || gotID != wantID {
			t.Fatalf("byte-wise read differs:\n got %s %q %v\nwant %s %q", fmtEvents(got), gotID, err, fmtEvents(want), wantID)
		}
		for _, ev := range want {
			if strings.ContainsAny(ev.Type, "\r\n") || strings.ContainsAny(ev.ID, "\r\n\x00") || bytes.IndexByte(ev.Data, '\r') >= 0 {
				t.Fatalf("impossible field in %s", fmtEvents([]Event{ev}))
			}
		}
		// Writer -> reader round trip of everything parsed.
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, ev := range want {
			if err := w.WriteEvent(ev); err != nil {
				t.Fatalf("WriteEvent(%s): %v", fmtEvents([]Event{ev}), err)
			}
		}
		back, backID, err := readAll(&buf, 0)
		if err != nil || !eventsEqual(back, want) {
			t.Fatalf("round trip:\n got %s %v\nwant %s\nwire %q", fmtEvents(back), err, fmtEvents(want), buf.String())
		}
		// Every id field makes its block an event (dispatched at EOF at
		// the latest), so the last ids must agree too.
		if backID != wantID {
			t.Fatalf("round trip last id %q, want %q", backID, wantID)
		}
		// A size limit must never panic and must only ever cut the stream
		// short with ErrEventTooLarge.
		limited, _, err := readAll(bytes.NewReader(in), 16)
		if err != nil && !strings.Contains(err.Error(), "maximum") {
			t.Fatalf("limited read error %v", err)
		}
		if len(limited) > len(want) || !eventsEqual(limited, want[:len(limited)]) {
			t.Fatalf("limited read disagrees: %s vs %s", fmtEvents(limited), fmtEvents(want))
		}
	})
}
