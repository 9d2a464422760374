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
		if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("%q: given up %#v, %v; retained %#v, %v", data, got, err, want, wantErr)
		}
	})
}

// A call whose params are latecheck.Params gets a large result unchecked
// and can refuse it: the frame is reported as unreadable, with the
// codec's own account of it, and the call fails as one whose response
// could not be read.
func TestLateResultRefused(t *testing.T) {
	text := strings.Repeat(`line\n`, lateMin/6+1)
	for _, tc := range []struct {
		name, result string
		valid        bool
	}{
		{"valid", `{"text":"` + text + `"}`, true},
		{"bad escape", `{"text":"` + text + `\x"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frame := []byte(`{"jsonrpc":"2.0","id":1,"result":` + tc.result + `}`)
			msgs, err := decodeGivenUp(nil, frame, nil)
			if err != nil || len(msgs) != 1 {
				t.Fatalf("decodeGivenUp: %v, %v", msgs, err)
			}
			r := msgs[0].(*Response)
			if r.late == nil {
				t.Fatal("the result was checked")
			}
			var reported []error
			c := &Conn{hook: func(err error) { reported = append(reported, err) }}
			p := &pendingCall{id: 1, method: "tools/call", late: &latecheck.Params{}}
			p.resp = r
			res, err, ok, _ := c.collect(p)
			if !ok || err != nil || !bytes.Equal(res, []byte(tc.result)) || !p.late.Unchecked {
				t.Fatalf("collect: %.40q, %v, %v; unchecked %v", res, err, ok, p.late.Unchecked)
			}
			_, codecErr := DecodeMessage(frame)
			if tc.valid {
				if codecErr != nil {
					t.Fatal(codecErr)
				}
				return
			}
			err = p.late.Refuse()
			var rpcErr *Error
			var d *DecodeError
			if !errors.As(err, &rpcErr) || rpcErr.Code != CodeParseError || len(reported) != 1 || !errors.As(reported[0], &d) {
				t.Fatalf("Refuse: %v; reported %v", err, reported)
			}
			var want *DecodeError
			if !errors.As(codecErr, &want) || d.Reason != want.Reason || d.Excerpt != want.Excerpt {
				t.Fatalf("reported %q (%q), the codec says %q (%q)", d.Reason, d.Excerpt, want.Reason, want.Excerpt)
			}
		})
	}
}
