package jsonrpc

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/latecheck"
)

// A frame given up to the engine decodes to what AppendFrameRetaining
// makes of it, except that a response's result may be left unchecked;
// checking it then gives AppendFrameRetaining's outcome: the same
// response, or the same error.
func FuzzDecodeGivenUp(f *testing.F) {
	for _, s := range mcpSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\nb\x"}]}}`,
		`{"jsonrpc":"2.0","result":{"a":"\""},"id":1}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":{"a":}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":},"result":{"a":1}}`,
		`{"jsonrpc":"2.0","id":1,"r\u0065sult":{"a":1},"result":2}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":"}"},"error":null}`,
		`{"jsonrpc":"2.0","id":1,"result":"x\"y","method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"result":[1,"]",{]}`,
		`{"jsonrpc":"2.0","id":1,"result":tru}`,
		`{"jsonrpc":"2.0","id":1,"result":"\\\\"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":1},"id":2}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":"}"} ,"x":{"b":[]} }`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":1}} `,
		`{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":1,"message":"m"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := AppendFrameRetaining(nil, bytes.Clone(data))
		got, err := decodeGivenUpFrom(0, nil, bytes.Clone(data), nil)
		if len(got) == 1 && err == nil {
			if r, ok := got[0].(*Response); ok && r.late != nil {
				if d := r.checkLate(); d != nil {
					err, got = d, nil
				}
			}
		}
		if repeatedIDAfterResult(err, want) {
			// The one way the guess differs: the codec takes a
			// repeated id after the result for the response's,
			// which the engine had given to the first id's call.
			return
		}
		if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%q: given up %#v, %v; retained %#v, %v", data, got, err, want, wantErr)
		}
	})
}

// A call whose params are latecheck.Params gets a large result unchecked
// and can recheck it: a result that is not one valid value is the codec's
// result when the engine's guess of its end was wrong in a valid frame,
// and otherwise the frame is reported as unreadable, with the codec's own
// account of it, and the call fails as one whose response could not be
// read.
func TestLateResultRechecked(t *testing.T) {
	text := strings.Repeat(`line\n`, lateMin/6+1)
	valid := `{"text":"` + text + `"}`
	for _, tc := range []struct {
		name, frame, result string
		guessed             bool
		// outcome of Recheck, when the result is not one valid value:
		// "" for the codec's refusal, else the result it gives.
		rechecked string
		refusal   string // the reason of a refusal that is not the codec's
		// rpcError is the code of the error response that the codec
		// finds, which Recheck returns as the call's error.
		rpcError int64
	}{
		{name: "valid", frame: `{"jsonrpc":"2.0","id":1,"result":` + valid + `}`, result: valid, guessed: true},
		{name: "bad escape", frame: `{"jsonrpc":"2.0","id":1,"result":{"text":"` + text + `\x"}}`, guessed: true},
		{name: "bad escape, id last", frame: `{"jsonrpc":"2.0","result":{"text":"` + text + `\x"},"id":1}`},
		{name: "a member after the result", frame: `{"jsonrpc":"2.0","id":1,"result":` + valid + `,"x":[1,"}"]}`, guessed: true, rechecked: valid},
		{name: "an id after the result", frame: `{"jsonrpc":"2.0","id":1,"result":` + valid + `,"id":2}`, guessed: true,
			refusal: `a repeated "id" after "result"`},
		{name: "an error after a null result", frame: `{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":-32001,"message":"` + text + `"}}`,
			guessed: true, rpcError: -32001},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frame := []byte(tc.frame)
			msgs, err := decodeGivenUp(nil, bytes.Clone(frame), nil)
			if err != nil || len(msgs) != 1 {
				t.Fatalf("decodeGivenUp: %v, %v", msgs, err)
			}
			r := msgs[0].(*Response)
			if r.late == nil || r.late.guessed != tc.guessed {
				t.Fatalf("late %+v, want guessed %v", r.late, tc.guessed)
			}
			var reported []error
			c := &Conn{hook: func(err error) { reported = append(reported, err) }}
			p := &pendingCall{id: 1, method: "tools/call", late: &latecheck.Params{}}
			p.resp = r
			res, err, ok, _ := c.collect(p)
			if !ok || err != nil || !p.late.Unchecked {
				t.Fatalf("collect: %.40q, %v, %v; unchecked %v", res, err, ok, p.late.Unchecked)
			}
			_, codecErr := DecodeMessage(frame)
			if tc.result != "" {
				if codecErr != nil || string(res) != tc.result {
					t.Fatalf("result %.40q, codec %v", res, codecErr)
				}
				return
			}
			res, err = p.late.Recheck()
			if tc.rechecked != "" {
				if err != nil || string(res) != tc.rechecked || len(reported) != 0 {
					t.Fatalf("Recheck: %.40q, %v; reported %v", res, err, reported)
				}
				return
			}
			var rpcErr *Error
			if tc.rpcError != 0 {
				if !errors.As(err, &rpcErr) || rpcErr.Code != tc.rpcError || len(reported) != 0 {
					t.Fatalf("Recheck: %.40q, %v; reported %v", res, err, reported)
				}
				return
			}
			var d *DecodeError
			if !errors.As(err, &rpcErr) || rpcErr.Code != CodeParseError || len(reported) != 1 || !errors.As(reported[0], &d) {
				t.Fatalf("Recheck: %v; reported %v", err, reported)
			}
			if tc.refusal != "" {
				if d.Reason != tc.refusal || codecErr != nil {
					t.Fatalf("reported %q; the codec says %v", d.Reason, codecErr)
				}
				return
			}
			var want *DecodeError
			if !errors.As(codecErr, &want) || d.Reason != want.Reason || d.Excerpt != want.Excerpt {
				t.Fatalf("reported %q (%q), the codec says %q (%q)", d.Reason, d.Excerpt, want.Reason, want.Excerpt)
			}
		})
	}
}

// repeatedIDAfterResult says that the given-up decoding refused a frame
// (err) which the codec took for a response to another id than the one
// before its result.
func repeatedIDAfterResult(err error, want []Message) bool {
	var d *DecodeError
	if !errors.As(err, &d) || d.Reason != `a repeated "id" after "result"` || len(want) != 1 {
		return false
	}
	_, isResponse := want[0].(*Response)
	return isResponse
}
