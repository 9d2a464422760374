package server

import (
	"bytes"
	"encoding/json"
	"testing"
)

// slowToolCall is what the core did before decodeToolCall: encoding/json
// for the params and again for _meta's progress token.
func slowToolCall(params []byte) (toolCallParams, json.RawMessage, bool) {
	p, token, err := decodeToolCallJSON(params)
	return p, token, err == nil
}

func sameToolCall(t *testing.T, params string) {
	t.Helper()
	want, wantTok, wantOK := slowToolCall([]byte(params))
	got, gotTok, err := decodeToolCall(json.RawMessage(params))
	if (err == nil) != wantOK {
		t.Fatalf("%q: error %v, encoding/json ok=%v", params, err, wantOK)
	}
	if err != nil {
		return
	}
	if got.name() != want.name() || !bytes.Equal(got.Arguments, want.Arguments) || !bytes.Equal(got.Meta, want.Meta) ||
		!bytes.Equal(got.Task, want.Task) || !bytes.Equal(gotTok, wantTok) {
		t.Fatalf("%q: got %+v token %s, encoding/json %+v token %s", params, got, gotTok, want, wantTok)
	}
}

var toolCallSeeds = []string{
	``,
	`null`,
	`{}`,
	` { "name" : "up__echo" , "arguments" : {"message":"hi"} , "_meta" : {"progressToken": 7} } `,
	`{"name":"echo","arguments":{"m":"x"},"_meta":{"progressToken":"tok"},"task":{"ttl":5}}`,
	`{"name":"a","name":"b"}`,
	`{"Name":"folded","arguments":{}}`,
	`{"name":"x","_meta":{"ProgressToken":3}}`,
	`{"name":"esc\u0041ped"}`,
	"{\"name\":\"bad \xff utf8\"}",
	`{"name":"ünïcode"}`,
	`{"name":5}`,
	`{"name":null}`,
	`{"name":"x","arguments":null,"_meta":null}`,
	`{"name":"x","_meta":5}`,
	`{"name":"x","_meta":{"progressToken":1,"progressToken":2}}`,
	`{"name":"x","other":[1,{"a":"}"}]}`,
	`{"name":"x",}`,
	`{"name":"x"} trailing`,
	`{"name":"x"`,
	`["name"]`,
	`{"na\nme":"x"}`,
	`{"\u006eame":"x"}`,
	`{"name":"x","arguments":{"deep":[[[[]]]]},"_meta":{"progressToken":{"not":"a token"}}}`,
}

func TestDecodeToolCallAgreesWithEncodingJSON(t *testing.T) {
	for _, params := range toolCallSeeds {
		sameToolCall(t, params)
	}
	// The usual shape takes the fast walk, not the fallback.
	var p toolCallParams
	if !fastToolCall([]byte(`{"name":"up__echo","arguments":{},"_meta":{"progressToken":1}}`), &p) || p.name() != "up__echo" {
		t.Fatalf("the common shape fell back to encoding/json: %+v", p)
	}
	if fastToolCall([]byte(`{"NAME":"x"}`), &p) {
		t.Fatal("a key encoding/json folds onto name was not left to it")
	}
}

func FuzzDecodeToolCall(f *testing.F) {
	for _, s := range toolCallSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		sameToolCall(t, params)
	})
}
