// Package jsonenc encodes the few shapes that tool arguments nearly always
// take (maps of strings to strings, numbers, booleans, lists and maps)
// without reflection, byte for byte as encoding/json would, and marks JSON
// this module encoded itself so that it is not validated a second time.
package jsonenc

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Encoded is JSON that this module encoded itself: valid and compact.
// Only code of this module can name the type, so a value of it never
// comes from a caller. It marshals as itself.
type Encoded []byte

// TokenRoom is how many spare bytes a Roomy holds before its params:
// enough for `{"_meta":{"progressToken":N},` with N any int64.
const TokenRoom = len(`{"_meta":{"progressToken":-9223372036854775808},`)

// Roomy is a request's params that this module encoded after TokenRoom
// spare bytes: the params (Params) are an object with no
// "_meta" member. The engine may write its progress-token member into the
// spare bytes, and over the params' opening brace, instead of copying the
// params into a new buffer: one allocation and a copy fewer for every
// tools/call, which always asks for progress. Whoever made it reads
// neither the spare bytes nor the params after the call, and the engine's
// PrepareRequest hook keeps no params (mcp's keeps nothing).
type Roomy []byte

// Params are the params r holds, after its spare bytes.
func (r Roomy) Params() Encoded { return Encoded(r[TokenRoom:]) }

// MarshalJSON returns e, so that encoding/json embeds it as JSON.
func (e Encoded) MarshalJSON() ([]byte, error) {
	if len(e) == 0 {
		return []byte("null"), nil
	}
	return e, nil
}

// maxDepth bounds the nesting the fast path follows; deeper values (or a
// map that holds itself) go to encoding/json, which reports a cycle.
const maxDepth = 32

// Append appends v's JSON to dst exactly as json.Marshal would encode it
// and reports true, or reports false (dst unchanged in content) when v
// holds a type the fast path leaves to encoding/json: anything but nil,
// bool, string, the integer kinds, float64, map[string]any and []any,
// and floats encoding/json refuses (NaN, ±Inf).
func Append(dst []byte, v any) ([]byte, bool) {
	out, ok := appendValue(dst, v, 0)
	if !ok {
		return dst, false
	}
	return out, true
}

func appendValue(b []byte, v any, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return AppendString(b, x), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case int32:
		return strconv.AppendInt(b, int64(x), 10), true
	case uint:
		return strconv.AppendUint(b, uint64(x), 10), true
	case uint64:
		return strconv.AppendUint(b, x, 10), true
	case float64:
		return appendFloat(b, x)
	case map[string]any:
		if depth >= maxDepth {
			return b, false
		}
		return appendMap(b, x, depth)
	case []any:
		if depth >= maxDepth {
			return b, false
		}
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, e, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	}
	return b, false
}

// appendMap writes the members in the order of their keys' bytes, as
// encoding/json does.
func appendMap(b []byte, m map[string]any, depth int) ([]byte, bool) {
	if m == nil {
		return append(b, "null"...), true
	}
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, k)
		b = append(b, ':')
		var ok bool
		if b, ok = appendValue(b, m[k], depth+1); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendFloat follows encoding/json: the shortest representation that
// reads back the same, in exponent form only below 1e-6 or from 1e21,
// with a two-digit negative exponent written without its leading zero.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// AppendString appends s as encoding/json quotes it. Printable ASCII
// without characters to escape is copied; anything else goes through
// encoding/json, whose escaping (HTML characters, U+2028, invalid UTF-8)
// is then exactly its own.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
