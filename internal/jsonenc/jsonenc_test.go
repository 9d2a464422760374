package jsonenc

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"
)

// same checks that Append writes exactly what json.Marshal writes.
func same(t *testing.T, v any) {
	t.Helper()
	want, err := json.Marshal(v)
	got, ok := Append([]byte("prefix"), v)
	if err != nil {
		if ok {
			t.Fatalf("Append(%#v) = %s, but json.Marshal fails: %v", v, got, err)
		}
		return
	}
	if !ok {
		return // left to encoding/json, which is allowed
	}
	if !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("Append(%#v) = %s, json.Marshal = %s", v, got[len("prefix"):], want)
	}
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	cases := []any{
		nil, true, false, "", "plain", `quo"te\back`, "<a&b>", "tab\there", "é ü 日本", "\u2028\u2029",
		string([]byte{0xff, 'a'}), 0, -1, int64(math.MinInt64), uint64(math.MaxUint64), int32(7), uint(3),
		0.0, math.Copysign(0, -1), 1.5, -2.25, 1e20, 1e21, 123456789e15, 1e-6, 1e-7, 5e-324, math.MaxFloat64,
		0.1 + 0.2, 100.0,
		map[string]any{}, map[string]any(nil), []any{}, []any(nil),
		map[string]any{"b": 1, "a": "x", "A": nil, "é": true, "<k>": []any{1.5, "s", map[string]any{"z": false}}},
		map[string]any{"message": "hello"},
	}
	for _, v := range cases {
		same(t, v)
	}
}

func TestAppendLeavesOtherTypesToEncodingJSON(t *testing.T) {
	type custom struct{ A int }
	for _, v := range []any{
		custom{1}, []int{1}, map[string]int{"a": 1}, float32(1.5), json.RawMessage(`{}`),
		map[string]any{"x": custom{2}}, []any{math.NaN()}, math.Inf(1),
	} {
		if got, ok := Append(nil, v); ok {
			t.Errorf("Append(%#v) = %s, want it left to encoding/json", v, got)
		}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	if _, ok := Append(nil, cyclic); ok {
		t.Error("Append followed a map that holds itself")
	}
	if _, err := json.Marshal(cyclic); err == nil {
		t.Error("json.Marshal accepted a cycle; the fallback would not report it")
	}
}

func TestEncodedMarshalsAsItself(t *testing.T) {
	got, err := json.Marshal(map[string]any{"p": Encoded(`{"a":[1,2]}`), "n": Encoded(nil)})
	if err != nil || string(got) != `{"n":null,"p":{"a":[1,2]}}` {
		t.Fatalf("json.Marshal = %s, %v", got, err)
	}
}

// FuzzAppend builds values from the fuzzer's bytes and compares Append
// with json.Marshal.
func FuzzAppend(f *testing.F) {
	f.Add([]byte("m\x02ks\x03abcn\x01\x00\x00\x00\x00\x00\x00\xf0?"))
	f.Add([]byte("l\x03tfz"))
	f.Add([]byte("s\x05<&>\xe2\x80"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := &builder{data: data}
		v := b.value(0)
		same(t, v)
	})
}

type builder struct {
	data []byte
	i    int
}

func (b *builder) byte() byte {
	if b.i >= len(b.data) {
		return 0
	}
	c := b.data[b.i]
	b.i++
	return c
}

func (b *builder) str() string {
	n := int(b.byte() % 16)
	end := min(b.i+n, len(b.data))
	s := string(b.data[b.i:end])
	b.i = end
	return s
}

func (b *builder) value(depth int) any {
	switch b.byte() % 9 {
	case 0:
		return nil
	case 1:
		return b.byte()%2 == 0
	case 2:
		return b.str()
	case 3:
		return int(int8(b.byte())) * int(b.byte())
	case 4:
		var buf [8]byte
		for i := range buf {
			buf[i] = b.byte()
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(buf[:]))
	case 5:
		return float64(int8(b.byte())) / 8
	case 6:
		if depth > 40 {
			return nil
		}
		m := map[string]any{}
		for range b.byte() % 5 {
			m[b.str()] = b.value(depth + 1)
		}
		return m
	case 7:
		if depth > 40 {
			return nil
		}
		var l []any
		for range b.byte() % 5 {
			l = append(l, b.value(depth+1))
		}
		return l
	default:
		return uint64(b.byte()) << (b.byte() % 64)
	}
}
