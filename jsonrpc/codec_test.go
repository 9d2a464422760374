package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeMessageKinds(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  Message
	}{
		{"request int id", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}`,
			&Request{ID: Int64ID(7), Method: "tools/call", Params: json.RawMessage(`{"name":"echo"}`)}},
		{"request string id", `{"jsonrpc":"2.0","id":"a-1","method":"ping"}`,
			&Request{ID: StringID("a-1"), Method: "ping"}},
		{"request negative id", `{"jsonrpc":"2.0","id":-3,"method":"ping"}`,
			&Request{ID: Int64ID(-3), Method: "ping"}},
		{"request array params", `{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]}`,
			&Request{ID: Int64ID(1), Method: "m", Params: json.RawMessage(`[1,2]`)}},
		{"null params are absent", `{"jsonrpc":"2.0","id":1,"method":"m","params":null}`,
			&Request{ID: Int64ID(1), Method: "m"}},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			&Notification{Method: "notifications/initialized"}},
		{"result response", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
			&Response{ID: Int64ID(1), Result: json.RawMessage(`{"tools":[]}`)}},
		{"null result is a result", `{"jsonrpc":"2.0","id":1,"result":null}`,
			&Response{ID: Int64ID(1), Result: json.RawMessage(`null`)}},
		{"error response", `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found","data":{"m":"x"}}}`,
			&Response{ID: Int64ID(2), Error: &Error{Code: -32601, Message: "Method not found", Data: json.RawMessage(`{"m":"x"}`)}}},
		{"error response null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
			&Response{Error: &Error{Code: -32700, Message: "Parse error"}}},
		{"error response without id", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`,
			&Response{Error: &Error{Code: -32700, Message: "Parse error"}}},
		{"null result beside an error", `{"jsonrpc":"2.0","id":3,"result":null,"error":{"code":1,"message":"m"}}`,
			&Response{ID: Int64ID(3), Error: &Error{Code: 1, Message: "m"}}},
		{"null error data dropped", `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m","data":null}}`,
			&Response{ID: Int64ID(3), Error: &Error{Code: 1, Message: "m"}}},
		{"escaped member names", `{"\u006asonrpc":"2.0","\u006dethod":"a\/b","params":{"k":"}\"{"}}`,
			&Notification{Method: "a/b", Params: json.RawMessage(`{"k":"}\"{"}`)}},
		{"repeated member keeps the last", `{"jsonrpc":"2.0","method":"first","method":"second"}`,
			&Notification{Method: "second"}},
		{"unknown members ignored", `{"jsonrpc":"2.0","id":1,"result":[1,{"a":"]"}],"extra":{"nested":[{}]},"x":true}`,
			&Response{ID: Int64ID(1), Result: json.RawMessage(`[1,{"a":"]"}]`)}},
		{"spaces everywhere", "{ \"jsonrpc\" : \"2.0\" , \"id\" : -0 , \"result\" : { } }",
			&Response{ID: Int64ID(0), Result: json.RawMessage(`{ }`)}},
		{"largest id", `{"jsonrpc":"2.0","id":9223372036854775807,"result":{}}`,
			&Response{ID: Int64ID(9223372036854775807), Result: json.RawMessage(`{}`)}},
		{"smallest id", `{"jsonrpc":"2.0","id":-9223372036854775808,"result":{}}`,
			&Response{ID: Int64ID(-9223372036854775808), Result: json.RawMessage(`{}`)}},
		{"escaped string id", `{"jsonrpc":"2.0","id":"a\u0041\n","method":"m"}`,
			&Request{ID: StringID("aA\n"), Method: "m"}},
		{"invalid UTF-8 replaced", "{\"jsonrpc\":\"2.0\",\"method\":\"a\xffb\"}",
			&Notification{Method: "a\ufffdb"}},
		{"surrounding whitespace", "  \n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n",
			&Notification{Method: "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeMessage([]byte(tt.frame))
			if err != nil {
				t.Fatalf("DecodeMessage(%s): %v", tt.frame, err)
			}
			if !messagesEqual(got, tt.want) {
				t.Fatalf("DecodeMessage(%s) = %s, want %s", tt.frame, describe(got), describe(tt.want))
			}
		})
	}
}

// TestDecodeMessageStrict checks that every malformed frame is refused with
// a *DecodeError whose reason names what is wrong.
func TestDecodeMessageStrict(t *testing.T) {
	tests := []struct {
		name, frame, reason string
	}{
		{"empty", ``, "empty frame"},
		{"blank", " \n\t", "empty frame"},
		{"number", `42`, "not a JSON object"},
		{"string", `"hello"`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"batch", `[{"jsonrpc":"2.0","method":"x"}]`, "batch"},
		{"truncated", `{"jsonrpc":"2.0","id":1,`, "malformed JSON"},
		{"trailing garbage", `{"jsonrpc":"2.0","method":"x"} x`, "malformed JSON"},
		{"missing jsonrpc", `{"id":1,"method":"ping"}`, `missing "jsonrpc"`},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `"jsonrpc" is "1.0"`},
		{"numeric version", `{"jsonrpc":2.0,"id":1,"method":"ping"}`, "jsonrpc"},
		{"both result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`, `both "result" and "error"`},
		{"neither", `{"jsonrpc":"2.0","id":1}`, `neither "method", "result" nor "error"`},
		{"null error", `{"jsonrpc":"2.0","id":1,"error":null}`, `"error" is null`},
		{"null request id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "request id is null"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "id 1.5 is not an integer"},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, "not an integer"},
		{"huge id", `{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}`, "not an integer"},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "neither a string nor an integer"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, "neither a string nor an integer"},
		{"fractional response id", `{"jsonrpc":"2.0","id":2.0,"result":{}}`, "not an integer"},
		{"result without id", `{"jsonrpc":"2.0","result":{}}`, "result response without an id"},
		{"result with null id", `{"jsonrpc":"2.0","id":null,"result":{}}`, "result response without an id"},
		{"method with result", `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`, `"method" together with`},
		{"empty method", `{"jsonrpc":"2.0","id":1,"method":""}`, `empty "method"`},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":5}`, `"method" is 5, not a string`},
		{"version not a string", `{"jsonrpc":2,"method":"x"}`, `"jsonrpc" is 2, want the string "2.0"`},
		{"null version", `{"jsonrpc":null,"method":"x"}`, `missing "jsonrpc"`},
		// Member names are case-sensitive: these members are unknown.
		{"upper-case jsonrpc", `{"JSONRPC":"2.0","method":"x"}`, `missing "jsonrpc"`},
		{"upper-case method", `{"jsonrpc":"2.0","Method":"x"}`, `neither "method", "result" nor "error"`},
		{"upper-case result", `{"jsonrpc":"2.0","id":1,"Result":{}}`, `neither "method", "result" nor "error"`},
		{"upper-case error code", `{"jsonrpc":"2.0","id":1,"error":{"Code":1,"message":"m"}}`, `"error" has no "code"`},
		{"scalar params", `{"jsonrpc":"2.0","id":1,"method":"x","params":3}`, `"params" is neither`},
		{"error not an object", `{"jsonrpc":"2.0","id":1,"error":"bad"}`, `"error" is not an object`},
		{"error without code", `{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}`, `"error" has no "code"`},
		{"fractional error code", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`, `"error.code" is 1.5`},
		{"error message not a string", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":7}}`, `"error.message" is 7, not a string`},
		{"error code a string", `{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}`, `"error.code" is "1", want an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := DecodeMessage([]byte(tt.frame))
			if err == nil {
				t.Fatalf("DecodeMessage(%s) = %s, want an error", tt.frame, describe(m))
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("DecodeMessage(%s) error %T %v is not a *DecodeError", tt.frame, err, err)
			}
			if !IsDecodeError(err) {
				t.Errorf("IsDecodeError(%v) = false", err)
			}
			if !strings.Contains(de.Reason, tt.reason) {
				t.Errorf("DecodeMessage(%s) reason %q, want it to contain %q", tt.frame, de.Reason, tt.reason)
			}
			if m != nil {
				t.Errorf("DecodeMessage(%s) returned a message %s beside its error", tt.frame, describe(m))
			}
		})
	}
}

// TestDecodeErrorResponseID: DecodeError.ID is set only for a frame that
// can only be a response, so that the engine fails no call for a bad
// request that happens to share its id.
func TestDecodeErrorResponseID(t *testing.T) {
	for frame, want := range map[string]ID{
		`{"id":3,"result":{}}`:                                        Int64ID(3),
		`{"jsonrpc":"1.0","id":"a","result":{}}`:                      StringID("a"),
		`{"jsonrpc":"2.0","id":4,"error":{"code":1.5,"message":"x"}}`: Int64ID(4),
		`{"jsonrpc":"2.0","id":5}`:                                    Int64ID(5),
		`{"jsonrpc":"2.0","id":6,"method":"x","result":{}}`:           {},
		`{"jsonrpc":"2.0","id":7,"method":7}`:                         {},
		`{"jsonrpc":"2.0","id":null,"result":{}}`:                     {},
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`:                      {},
		`{"jsonrpc":"2.0","id":8,"result"`:                            {},
	} {
		_, err := DecodeMessage([]byte(frame))
		var d *DecodeError
		if !errors.As(err, &d) {
			t.Fatalf("%s: err = %v, want a *DecodeError", frame, err)
		}
		if d.ID != want {
			t.Errorf("%s: ID = %v, want %v", frame, d.ID, want)
		}
	}
}

// TestDecodeErrorErrMeansNotJSON: Err is set for a frame that is not JSON
// at all, whatever its first byte, and nil for JSON that is not a message.
func TestDecodeErrorErrMeansNotJSON(t *testing.T) {
	for frame, notJSON := range map[string]bool{
		``:                  true,
		`hello`:             true,
		`[1,{bad`:           true,
		`"unterminated`:     true,
		`{bad`:              true,
		`3`:                 false,
		`[]`:                false,
		`null`:              false,
		`{"foo":1}`:         false,
		`{"jsonrpc":"2.0"}`: false,
	} {
		for _, decode := range []func([]byte) error{
			func(b []byte) error { _, err := DecodeMessage(b); return err },
			func(b []byte) error { _, err := DecodeFrame(b); return err },
		} {
			var d *DecodeError
			if err := decode([]byte(frame)); !errors.As(err, &d) {
				t.Fatalf("%q: err = %v, want a *DecodeError", frame, err)
			}
			if (d.Err != nil) != notJSON {
				t.Errorf("%q: Err = %v, want it set: %v", frame, d.Err, notJSON)
			}
		}
	}
}

func TestDecodeErrorExcerptIsBounded(t *testing.T) {
	frame := `{"jsonrpc":"1.0","method":"` + strings.Repeat("x", 1000) + `"}`
	_, err := DecodeMessage([]byte(frame))
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a *DecodeError", err)
	}
	if len(de.Excerpt) != excerptLimit || !strings.HasPrefix(frame, de.Excerpt) {
		t.Fatalf("excerpt has %d bytes, want the frame's first %d", len(de.Excerpt), excerptLimit)
	}
	if !strings.Contains(err.Error(), `frame starts "{\"jsonrpc\":\"1.0\"`) {
		t.Errorf("error %q does not quote the start of the frame", err)
	}
}

func TestDecodeErrorUnwrapsSyntaxError(t *testing.T) {
	_, err := DecodeMessage([]byte(`{"jsonrpc":"2.0",}`))
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %v does not wrap the *json.SyntaxError", err)
	}
	if !strings.Contains(err.Error(), "at byte") {
		t.Errorf("error %q does not say where the syntax error is", err)
	}
}

func TestDecodeFrame(t *testing.T) {
	t.Run("single message", func(t *testing.T) {
		msgs, err := DecodeFrame([]byte(`{"jsonrpc":"2.0","method":"x"}`))
		if err != nil || len(msgs) != 1 || !messagesEqual(msgs[0], &Notification{Method: "x"}) {
			t.Fatalf("DecodeFrame = %v, %v", msgs, err)
		}
	})
	t.Run("batch keeps order", func(t *testing.T) {
		msgs, err := DecodeFrame([]byte(` [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"r","method":"ping"}] `))
		if err != nil {
			t.Fatal(err)
		}
		want := []Message{
			&Response{ID: Int64ID(1), Result: json.RawMessage(`{}`)},
			&Notification{Method: "n"},
			&Request{ID: StringID("r"), Method: "ping"},
		}
		if len(msgs) != len(want) {
			t.Fatalf("got %d messages, want %d", len(msgs), len(want))
		}
		for i := range want {
			if !messagesEqual(msgs[i], want[i]) {
				t.Errorf("item %d = %s, want %s", i, describe(msgs[i]), describe(want[i]))
			}
		}
	})
	t.Run("batch with bad items keeps the good ones", func(t *testing.T) {
		msgs, err := DecodeFrame([]byte(`[{"jsonrpc":"2.0","method":"a"},{"id":1,"method":"b"},7,{"jsonrpc":"2.0","method":"c"}]`))
		if len(msgs) != 2 || !messagesEqual(msgs[0], &Notification{Method: "a"}) || !messagesEqual(msgs[1], &Notification{Method: "c"}) {
			t.Fatalf("good items = %v", msgs)
		}
		if err == nil {
			t.Fatal("no error for the bad items")
		}
		if !IsDecodeError(err) {
			t.Errorf("error %v is not a DecodeError", err)
		}
		for _, want := range []string{`batch item 1: missing "jsonrpc"`, "batch item 2: not a JSON object"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
	})
	for name, frame := range map[string]string{
		"empty batch":       `[]`,
		"malformed batch":   `[{"jsonrpc":"2.0","method":"a"}`,
		"empty frame":       ``,
		"non-object scalar": `true`,
	} {
		t.Run(name, func(t *testing.T) {
			msgs, err := DecodeFrame([]byte(frame))
			if err == nil || !IsDecodeError(err) || len(msgs) != 0 {
				t.Fatalf("DecodeFrame(%s) = %v, %v; want no messages and a DecodeError", frame, msgs, err)
			}
		})
	}
}

func TestEncodeMessage(t *testing.T) {
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{"request", &Request{ID: Int64ID(1), Method: "initialize", Params: json.RawMessage(`{"protocolVersion":"2025-06-18"}`)},
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`},
		{"string id is quoted", &Request{ID: StringID(`a"b`), Method: "ping"},
			`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`},
		{"notification without params", &Notification{Method: "notifications/initialized"},
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"method escaped", &Notification{Method: "a<b>\n"},
			`{"jsonrpc":"2.0","method":"a\u003cb\u003e\n"}`},
		{"empty result is {}", &Response{ID: Int64ID(4)},
			`{"jsonrpc":"2.0","id":4,"result":{}}`},
		{"error response", &Response{ID: Int64ID(5), Error: &Error{Code: -32601, Message: "method not found"}},
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found"}}`},
		{"error without id", &Response{Error: &Error{Code: -32700, Message: "parse error"}},
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`},
		{"multi-line params compacted", &Notification{Method: "x", Params: json.RawMessage("{\n  \"a\": 1\r\n}")},
			`{"jsonrpc":"2.0","method":"x","params":{"a":1}}`},
		{"multi-line error data compacted", &Response{ID: Int64ID(1), Error: &Error{Code: 1, Message: "m", Data: json.RawMessage("[1,\n2]")}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":[1,2]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := EncodeMessage(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("EncodeMessage = %s\nwant          %s", got, tt.want)
			}
			back, err := DecodeMessage(got)
			if err != nil {
				t.Fatalf("encoded message does not decode: %v", err)
			}
			if describe(back) != tt.want {
				t.Fatalf("round trip = %s, want %s", describe(back), tt.want)
			}
		})
	}
}

func TestEncodeMessageRefusesBadInput(t *testing.T) {
	if _, err := EncodeMessage(&Request{Method: "ping"}); err == nil || !strings.Contains(err.Error(), "without an id") {
		t.Errorf("request without id: err = %v", err)
	}
	if _, err := EncodeMessage(&Notification{Method: "x", Params: json.RawMessage("{\n")}); err == nil || !strings.Contains(err.Error(), "params of x") {
		t.Errorf("broken multi-line params: err = %v", err)
	}
	if _, err := EncodeMessage(nil); err == nil {
		t.Error("nil message encoded without error")
	}
}

func TestAppendMessageAppends(t *testing.T) {
	b, err := AppendMessage([]byte("prefix:"), &Notification{Method: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `prefix:{"jsonrpc":"2.0","method":"x"}` {
		t.Fatalf("AppendMessage = %s", b)
	}
}

func TestIDs(t *testing.T) {
	var zero ID
	if zero.IsValid() || zero.Raw() != nil || zero.String() != "<none>" {
		t.Errorf("zero id: valid %v raw %v string %q", zero.IsValid(), zero.Raw(), zero.String())
	}
	n := Int64ID(7)
	if v, ok := n.Int64(); !ok || v != 7 || n.IsString() || n.String() != "7" || n.Raw() != int64(7) {
		t.Errorf("Int64ID(7) misbehaves: %v %v %q", v, ok, n.String())
	}
	s := StringID("7")
	if _, ok := s.Int64(); ok || !s.IsString() || s.String() != `"7"` || s.Raw() != "7" {
		t.Errorf("StringID(\"7\") misbehaves: %q", s.String())
	}
	if n == s {
		t.Error(`7 and "7" compare equal`)
	}
	var id ID
	for raw, want := range map[string]ID{`12`: Int64ID(12), `"x"`: StringID("x"), `null`: {}} {
		if err := json.Unmarshal([]byte(raw), &id); err != nil || id != want {
			t.Errorf("unmarshal %s = %v, %v", raw, id, err)
		}
	}
	if err := json.Unmarshal([]byte(`1.25`), &id); err == nil {
		t.Error("fractional id unmarshalled")
	}
	if b, _ := json.Marshal(StringID("q")); string(b) != `"q"` {
		t.Errorf("marshal = %s", b)
	}
}

func TestNewResponse(t *testing.T) {
	r, err := NewResponse(Int64ID(1), nil, nil)
	if err != nil || string(r.Result) != "{}" {
		t.Errorf("nil result = %s, %v", r.Result, err)
	}
	r, _ = NewResponse(Int64ID(1), map[string]int{"a": 1}, nil)
	if string(r.Result) != `{"a":1}` {
		t.Errorf("map result = %s", r.Result)
	}
	r, _ = NewResponse(Int64ID(1), nil, ErrMethodNotFound)
	if r.Error != ErrMethodNotFound {
		t.Errorf("ErrMethodNotFound became %v", r.Error)
	}
	r, _ = NewResponse(Int64ID(1), nil, errors.New("boom"))
	if r.Error.Code != CodeInternalError || r.Error.Message != "boom" {
		t.Errorf("plain error became %v", r.Error)
	}
	if _, err := NewResponse(Int64ID(1), func() {}, nil); err == nil {
		t.Error("unencodable result accepted")
	}
}

// messagesEqual compares two messages, treating raw JSON members as equal
// when they are equal after compaction.
func messagesEqual(a, b Message) bool {
	switch a := a.(type) {
	case *Request:
		b, ok := b.(*Request)
		return ok && a.ID == b.ID && a.Method == b.Method && rawEqual(a.Params, b.Params)
	case *Notification:
		b, ok := b.(*Notification)
		return ok && a.Method == b.Method && rawEqual(a.Params, b.Params)
	case *Response:
		b, ok := b.(*Response)
		if !ok || a.ID != b.ID || !rawEqual(a.Result, b.Result) || (a.Error == nil) != (b.Error == nil) {
			return false
		}
		return a.Error == nil || (a.Error.Code == b.Error.Code && a.Error.Message == b.Error.Message && rawEqual(a.Error.Data, b.Error.Data))
	}
	return false
}

func rawEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return compact(a) == compact(b)
}

func compact(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return "invalid:" + string(raw)
	}
	return buf.String()
}

func describe(m Message) string {
	if m == nil {
		return "<nil>"
	}
	b, err := EncodeMessage(m)
	if err != nil {
		return "<unencodable: " + err.Error() + ">"
	}
	return string(b)
}

// TestDecodedMessageDoesNotAliasTheFrame: transports reuse their read
// buffer, so nothing decoded may point into it.
func TestDecodedMessageDoesNotAliasTheFrame(t *testing.T) {
	frames := []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"b"}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"a":"b"}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m","data":{"a":"b"}}}`,
	}
	for _, f := range frames {
		buf := []byte(f)
		m, err := DecodeMessage(buf)
		if err != nil {
			t.Fatal(err)
		}
		before := describe(m)
		for i := range buf {
			buf[i] = 'Z'
		}
		if after := describe(m); after != before {
			t.Errorf("overwriting the frame changed the message from %s to %s", before, after)
		}
	}
}

func TestNewRequestAndNotification(t *testing.T) {
	r, err := NewRequest(Int64ID(2), "tools/list", map[string]string{"cursor": "c"})
	if err != nil || describe(r) != `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"c"}}` {
		t.Errorf("NewRequest = %s, %v", describe(r), err)
	}
	n, err := NewNotification("notifications/initialized", nil)
	if err != nil || describe(n) != `{"jsonrpc":"2.0","method":"notifications/initialized"}` {
		t.Errorf("NewNotification = %s, %v", describe(n), err)
	}
	if _, err := NewRequest(Int64ID(1), "x", make(chan int)); err == nil || !strings.Contains(err.Error(), "encoding params of x") {
		t.Errorf("unencodable params: %v", err)
	}
	if _, err := NewNotification("y", func() {}); err == nil {
		t.Error("unencodable notification params accepted")
	}
}

// The nesting limit (encoding/json's 10,000) holds for the frame, the
// result's nesting counted from the frame's object, now that the frame is
// checked member by member.
func TestDecodeNestingLimitCountsTheFrame(t *testing.T) {
	frame := func(depth int) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`)
	}
	if _, err := DecodeMessage(frame(9999)); err != nil {
		t.Errorf("a result 9,999 deep (10,000 with the frame): %v", err)
	}
	_, err := DecodeMessage(frame(10000))
	if err == nil || !strings.Contains(err.Error(), "malformed JSON") {
		t.Errorf("a result 10,000 deep (10,001 with the frame) = %v, want malformed JSON", err)
	}
}
