package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

const redactTestSecret = "s3cret-value"

func redactTestSecretOut(s string) string { return strings.ReplaceAll(s, redactTestSecret, "***") }

// Masking rewrites strings only: a number, a key's place and the escapes
// of other strings stay as they were, the message handed in is left alone
// (a shared result), and a message with nothing to mask goes out as it is.
func TestRedactMessage(t *testing.T) {
	result := json.RawMessage(`{"content":[{"type":"text","text":"TOKEN=s3cret-value \u0041"},{"type":"text","text":"\u0042"}],"n":1234,"s3cret-value":true}`)
	orig := string(result)
	resp := &jsonrpc.Response{ID: jsonrpc.Int64ID(1), Result: result}
	got := redactMessage(resp, redactTestSecretOut).(*jsonrpc.Response)
	if want := `{"content":[{"type":"text","text":"TOKEN=*** A"},{"type":"text","text":"\u0042"}],"n":1234,"***":true}`; string(got.Result) != want {
		t.Errorf("result %s, want %s", got.Result, want)
	}
	if string(resp.Result) != orig || string(result) != orig {
		t.Errorf("the message handed in changed: %s", resp.Result)
	}
	clean := &jsonrpc.Notification{Method: "notifications/message", Params: json.RawMessage(`{"data":"nothing here"}`)}
	if redactMessage(clean, redactTestSecretOut) != jsonrpc.Message(clean) {
		t.Error("a message with nothing to mask was copied")
	}
	// Escaped by the peer: the decoded text holds the secret.
	escaped := &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "elicitation/create", Params: json.RawMessage(`{"message":"s3cret\u002dvalue"}`)}
	if got := redactMessage(escaped, func(s string) string {
		return redactTestSecretOut(strings.ReplaceAll(s, `s3cret\u002dvalue`, "***"))
	}).(*jsonrpc.Request); string(got.Params) != `{"message":"***"}` {
		t.Errorf("escaped params: %s", got.Params)
	}
	e := &jsonrpc.Response{ID: jsonrpc.Int64ID(3), Error: &jsonrpc.Error{Code: -32000, Message: "no s3cret-value", Data: json.RawMessage(`{"why":"s3cret-value"}`)}}
	ge := redactMessage(e, redactTestSecretOut).(*jsonrpc.Response)
	if ge.Error.Message != "no ***" || string(ge.Error.Data) != `{"why":"***"}` || e.Error.Message != "no s3cret-value" {
		t.Errorf("error: %+v (handed in: %+v)", ge.Error, e.Error)
	}
}

// Whatever JSON a peer sends on, the masked copy is valid JSON when the
// original was, and none of its strings holds the secret.
func FuzzRedactMessage(f *testing.F) {
	for _, s := range []string{`{"a":"s3cret-value"}`, `["x","s3cret-value",1e5,{"k":"v"}]`, `"s3cret\u002dvalue"`, `{"s3cret-value":null}`, `12`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		msg := redactMessage(&jsonrpc.Notification{Method: "m", Params: b}, redactTestSecretOut).(*jsonrpc.Notification)
		if !json.Valid(msg.Params) {
			t.Fatalf("%s masked to invalid JSON %s", b, msg.Params)
		}
		var v any
		_ = json.Unmarshal(msg.Params, &v)
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				if strings.Contains(x, redactTestSecret) && strings.Contains(string(b), redactTestSecret) {
					t.Fatalf("%s: a string still holds the secret: %q", b, x)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					walk(k)
					walk(e)
				}
			}
		}
		walk(v)
	})
}
