package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A refused request is answered under its id whenever the id could be
// read; a frame that is not a request, or whose id is not one, under null.
func TestBadFrameAnswerKeepsReadableID(t *testing.T) {
	c := newHTTPClient(t, NewHTTPServer(t, NewDefault(nil), nil))
	c.initialize("2025-06-18")
	for _, tt := range []struct {
		frame string
		id    jsonrpc.ID
	}{
		{`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"x"}`, jsonrpc.Int64ID(8)},
		{`{"jsonrpc":"1.0","id":"s","method":"ping"}`, jsonrpc.StringID("s")},
		{`{"jsonrpc":"2.0","id":9,"method":1}`, jsonrpc.Int64ID(9)},
		{`{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}`, jsonrpc.ID{}},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping","params":"x"}`, jsonrpc.ID{}},
		{`{"jsonrpc":"2.0","ID":4,"method":"ping","params":"x"}`, jsonrpc.ID{}},
		{`{"jsonrpc":"2.0","id":4,"method":"ping","params":`, jsonrpc.ID{}},
	} {
		resp := c.do(http.MethodPost, tt.frame, nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", tt.frame, resp.StatusCode)
			continue
		}
		if r := errorReply(t, resp); r.ID != tt.id {
			t.Errorf("%s: error for id %s, want %s", tt.frame, r.ID, tt.id)
		}
	}
}

// FuzzReadableID checks readableID against the codec: a frame the codec
// reads as a request has that request's id; one it reads as a response
// or notification has none; and an id is only ever read from JSON.
func FuzzReadableID(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":"x"}`,
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","\u0069d":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/x"}`,
		`{"id":null,"method":"x"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"id":1e2,"method":"x"}`,
		"{\"id\":1,\"method\":\"x\"\xff}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, frame string) {
		id := readableID([]byte(frame))
		if id.IsValid() && !json.Valid([]byte(frame)) {
			t.Fatalf("id %s read from %q, which is not JSON", id, frame)
		}
		switch m, err := jsonrpc.DecodeMessage([]byte(frame)); m := m.(type) {
		case *jsonrpc.Request:
			if err == nil && id != m.ID {
				t.Fatalf("%q: id %s, the codec's %s", frame, id, m.ID)
			}
		case *jsonrpc.Response, *jsonrpc.Notification:
			if id.IsValid() {
				t.Fatalf("%q: id %s read from a %T", frame, id, m)
			}
		}
	})
}
