//go:build unix

package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/wirerec"
)

// A recorded stdio session has a line per message, both ways, with the
// values of the child's Env taken out of the messages.
func TestRecordStdioRedactsEnvValues(t *testing.T) {
	const secret = "sk-RECORDED-SECRET-42"
	c := childCommand(t, childEcho)
	c.Env["API_KEY"] = secret
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	s, err := Record(c, rec, "").Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	call(t, s, 7, "echo", `{"token":"`+secret+`","n":1}`)
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), secret) {
		t.Fatalf("the recording shows the secret:\n%s", buf.String())
	}
	entries, err := wirerec.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Direction != wirerec.Send || entries[1].Direction != wirerec.Receive {
		t.Fatalf("entries %+v, want a send and a receive", entries)
	}
	for _, e := range entries {
		if e.Transport != "stdio" || e.Time.IsZero() {
			t.Fatalf("entry %+v", e)
		}
		var m struct {
			ID     int64           `json:"id"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(e.Message, &m); err != nil || m.ID != 7 {
			t.Fatalf("message %s: %v", e.Message, err)
		}
		if body := string(m.Params) + string(m.Result); !strings.Contains(body, `"token":"[redacted]"`) {
			t.Fatalf("message %s, want the token redacted", e.Message)
		}
	}
}
