package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// mcpSeeds are real MCP frames (and near misses) that seed the fuzzers.
var mcpSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"mcpwire","version":"0.1.0"}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"everything","version":"1.0.0"},"instructions":"hi"}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"id":4,"result":{"tools":[]}}`,
	`{"jsonrpc":"2.0","id":"x","error":{"code":"E","message":"m"}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"abc"}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"héllo \u2028 \"q\""},"_meta":{"progressToken":3}}}`,
	`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Echo: hi"}],"isError":false}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":0.5,"total":1,"message":"half way"}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"timed out after 30s"}}`,
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"k":[1,2,{"z":null}]}}}`,
	`{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}`,
	`{"jsonrpc":"2.0","id":"srv-1","error":{"code":-1,"message":"User rejected sampling request"}}`,
	`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Unknown tool: nope","data":{"tool":"nope"}}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":5,"result":{}}`,
	`[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
	`[{"jsonrpc":"2.0","id":6,"result":{}},{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}]`,
	`[]`,
	`[1,{"jsonrpc":"2.0","method":"x"}]`,
	"{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"x\",\n  \"params\": {\n    \"a\": 1\n  }\n}",
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`,
	`{"id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":9223372036854775807,"result":{}}`,
	`{"jsonrpc":"2.0","id":"\ud800","method":"x"}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
	`not json at all`,
	`[1,{bad`,
	`"unterminated`,
	`{"jsonrpc":"2.0",`,
	``,
	`null`,
}

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range mcpSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScannerAgreesWithEncodingJSON(t, data)
		m, err := DecodeMessage(data)
		if err != nil {
			if m != nil {
				t.Fatalf("DecodeMessage returned a message beside error %v", err)
			}
			if !IsDecodeError(err) {
				t.Fatalf("DecodeMessage error %T %v is not a *DecodeError", err, err)
			}
			checkResponseID(t, data, err)
			checkErrTellsJSON(t, data, err)
			return
		}
		checkRoundTrip(t, m)
	})
}

// checkErrTellsJSON checks that every DecodeError in err has an Err
// exactly when data is not JSON, which is how a server tells -32700 Parse
// error from -32600 Invalid Request. The codec trims a frame as
// bytes.TrimSpace does, which takes more than JSON's white space (\v, \f),
// so JSON is judged on the trimmed frame.
func checkErrTellsJSON(t *testing.T, data []byte, err error) {
	t.Helper()
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			checkErrTellsJSON(t, data, e)
		}
		return
	}
	var d *DecodeError
	if !errors.As(err, &d) {
		return
	}
	if notJSON := !json.Valid(bytes.TrimSpace(data)); (d.Err != nil) != notJSON {
		t.Fatalf("%q: DecodeError.Err = %v, but the frame is JSON: %v", data, d.Err, !notJSON)
	}
}

// checkResponseID checks that a DecodeError names an id only for a frame
// that is a JSON object with that id and without a method, as the engine
// fails the pending call of that id with it.
func checkResponseID(t *testing.T, data []byte, err error) {
	var d *DecodeError
	if !errors.As(err, &d) || !d.ID.IsValid() {
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		t.Fatalf("%q: DecodeError.ID %v for a frame that is not a JSON object", data, d.ID)
	}
	if m, ok := obj["method"]; ok && string(m) != "null" {
		t.Fatalf("%q: DecodeError.ID %v for a frame with a method", data, d.ID)
	}
	id, perr := parseID(bytes.TrimSpace(obj["id"]))
	if perr != nil || id != d.ID {
		t.Fatalf("%q: DecodeError.ID %v, but the frame's id is %s", data, d.ID, obj["id"])
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range mcpSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScannerAgreesWithEncodingJSON(t, data)
		msgs, err := DecodeFrame(data)
		if err != nil && !IsDecodeError(err) {
			t.Fatalf("DecodeFrame error %T %v is not a DecodeError", err, err)
		}
		checkErrTellsJSON(t, data, err)
		for _, m := range msgs {
			if m == nil {
				t.Fatalf("DecodeFrame returned a nil message (err %v)", err)
			}
			checkRoundTrip(t, m)
		}
		// Retaining the frame changes where the messages' bytes live,
		// not what they are or what is refused.
		kept, keptErr := AppendFrameRetaining(nil, bytes.Clone(data))
		if !reflect.DeepEqual(kept, msgs) || fmt.Sprint(keptErr) != fmt.Sprint(err) {
			t.Fatalf("AppendFrameRetaining(%q) = %#v, %v; DecodeFrame gave %#v, %v", data, kept, keptErr, msgs, err)
		}
	})
}

// A retained frame's result and params are slices of it, not copies, and
// appending to one cannot overwrite what follows it in the frame.
func TestAppendFrameRetainingKeepsTheFrame(t *testing.T) {
	frame := []byte(`[{"jsonrpc":"2.0","id":1,"result":{"a":1}},{"jsonrpc":"2.0","method":"m","params":{"b":2}}]`)
	msgs, err := AppendFrameRetaining(nil, frame)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("decoded %v, %v", msgs, err)
	}
	res := msgs[0].(*Response).Result
	params := msgs[1].(*Notification).Params
	for _, part := range [][]byte{res, params} {
		at := bytes.Index(frame, part)
		if at < 0 || &frame[at] != &part[0] {
			t.Fatalf("%s is a copy, not a slice of the frame", part)
		}
	}
	_ = append(res, "xx"...)
	if !bytes.Contains(frame, []byte(`{"a":1}},{`)) {
		t.Fatalf("appending to the result overwrote the frame: %s", frame)
	}
	// Without retaining, the same parts are copies.
	msgs, _ = AppendFrame(nil, frame)
	if res := msgs[0].(*Response).Result; &frame[bytes.Index(frame, res)] == &res[0] {
		t.Fatal("AppendFrame kept a slice of the frame")
	}
}

// checkRoundTrip asserts that a decoded message encodes, and that the
// encoding decodes to an equal message and is itself stable.
func checkRoundTrip(t *testing.T, m Message) {
	t.Helper()
	enc, err := EncodeMessage(m)
	if err != nil {
		t.Fatalf("decoded message %#v does not encode: %v", m, err)
	}
	for _, c := range enc {
		if c == '\n' || c == '\r' {
			t.Fatalf("encoding contains a line break: %q", enc)
		}
	}
	back, err := DecodeMessage(enc)
	if err != nil {
		t.Fatalf("re-encoded message %s does not decode: %v", enc, err)
	}
	if !messagesEqual(m, back) {
		t.Fatalf("round trip changed the message:\n first %#v\n again %#v\n via %s", m, back, enc)
	}
	enc2, err := EncodeMessage(back)
	if err != nil || string(enc2) != string(enc) {
		t.Fatalf("encoding is not stable:\n %s\n %s (%v)", enc, enc2, err)
	}
}

// checkScannerAgreesWithEncodingJSON compares the codec's member and item
// scanners with encoding/json on any valid object or array.
func checkScannerAgreesWithEncodingJSON(t *testing.T, data []byte) {
	t.Helper()
	// The check-and-walk of a frame agrees with json.Valid on every
	// input, and with objectMembers on the members it yields.
	var walked [][2][]byte
	valid := validMembers(data, func(k, v []byte) { walked = append(walked, [2][]byte{k, v}) })
	if want := json.Valid(data) && bytes.TrimSpace(data)[0] == '{'; valid != want {
		t.Fatalf("validMembers(%q) = %v, json.Valid and an object: %v", data, valid, want)
	}
	if valid {
		i := 0
		for k, v := range objectMembers(bytes.TrimSpace(data)) {
			if i >= len(walked) || !bytes.Equal(walked[i][0], k) || !bytes.Equal(walked[i][1], v) {
				t.Fatalf("validMembers(%q) yields %q, objectMembers %q at %d", data, walked, k, i)
			}
			i++
		}
		if i != len(walked) {
			t.Fatalf("validMembers(%q) yields %d members, objectMembers %d", data, len(walked), i)
		}
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || !json.Valid(data) {
		return
	}
	switch data[0] {
	case '{':
		var want map[string]json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("encoding/json refused a valid object: %v", err)
		}
		got := map[string]json.RawMessage{}
		for k, v := range objectMembers(data) {
			got[string(k)] = json.RawMessage(v)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("members of %s:\n scanner %q\n    json %q", data, got, want)
		}
	case '[':
		var want []json.RawMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("encoding/json refused a valid array: %v", err)
		}
		var got []json.RawMessage
		for v := range arrayItems(data) {
			got = append(got, json.RawMessage(v))
		}
		if len(got) != len(want) {
			t.Fatalf("items of %s: scanner %q, json %q", data, got, want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("items of %s: scanner %q, json %q", data, got, want)
			}
		}
	}
}
