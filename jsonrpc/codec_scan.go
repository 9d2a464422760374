package jsonrpc

import (
	"bytes"
	"encoding/json"
	"iter"
	"strconv"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// The scanners below walk JSON that jsonscan.Valid has already accepted, so
// they only need to find where each value ends, never to report syntax.
// They let the codec match member names exactly and keep raw members as
// slices without reflection.

// objectMembers yields the members of the valid JSON object obj, keys
// unescaped and values raw.
func objectMembers(obj []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(key, value []byte) bool) {
		i := jsonscan.SkipSpace(obj, 1)
		for i < len(obj) && obj[i] == '"' {
			end := jsonscan.SkipString(obj, i)
			key := obj[i+1 : end-1]
			if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
				if k, ok := jsonString(obj[i:end]); ok {
					key = []byte(k)
				}
			}
			i = jsonscan.SkipSpace(obj, end)
			i = jsonscan.SkipSpace(obj, i+1) // the colon
			vEnd := jsonscan.SkipValue(obj, i)
			if !yield(key, obj[i:vEnd]) {
				return
			}
			i = jsonscan.SkipSpace(obj, vEnd)
			if i < len(obj) && obj[i] == ',' {
				i = jsonscan.SkipSpace(obj, i+1)
			}
		}
	}
}

// validMembers checks that obj is one JSON object (with white space around
// it) as jsonscan.Valid would, and calls member for each of its members,
// keys unescaped and values raw, as objectMembers would; it reports
// whether obj was valid. A frame's check and its walk are one pass: a
// large result is crossed once, not twice. On invalid input some members
// may have been seen before it says so.
func validMembers(obj []byte, member func(key, value []byte)) bool {
	return validMembersLeaving(obj, "", func(key, value []byte, _ bool) { member(key, value) })
}

// validMembersLeaving is validMembers with the value of a member whose
// raw key is leave not checked (see jsonscan.ObjectLeaving); left says
// which one that was.
func validMembersLeaving(obj []byte, leave string, member func(key, value []byte, left bool)) bool {
	return jsonscan.ObjectLeaving(obj, leave, func(key, value []byte, left bool) bool {
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			// Rare: an escaped or non-UTF-8 key is decoded as a string.
			quoted := append(append(append(make([]byte, 0, len(key)+2), '"'), key...), '"')
			if k, ok := jsonString(quoted); ok {
				key = []byte(k)
			}
		}
		member(key, value, left)
		return true
	})
}

// arrayItems yields the raw items of the valid JSON array arr.
func arrayItems(arr []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		i := jsonscan.SkipSpace(arr, 1)
		for i < len(arr) && arr[i] != ']' {
			end := jsonscan.SkipValue(arr, i)
			if !yield(arr[i:end]) {
				return
			}
			i = jsonscan.SkipSpace(arr, end)
			if i < len(arr) && arr[i] == ',' {
				i = jsonscan.SkipSpace(arr, i+1)
			}
		}
	}
}

// methodString is jsonString for a message's method. The methods a peer
// sends over and over come back as constants rather than a string made
// for each message (the switch compares without making one).
func methodString(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' {
		switch string(raw[1 : len(raw)-1]) {
		case "tools/call":
			return "tools/call", true
		case MethodProgress:
			return MethodProgress, true
		case MethodCancelled:
			return MethodCancelled, true
		case "notifications/message":
			return "notifications/message", true
		case "ping":
			return "ping", true
		}
	}
	return jsonString(raw)
}

// jsonString decodes the valid JSON value raw if it is a string. Plain
// strings are copied directly; ones with escapes or invalid UTF-8 go
// through encoding/json, which also replaces invalid bytes with U+FFFD.
func jsonString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// parseInt reads a JSON number that is an integer fitting int64; fractions
// and exponents are refused, even 2.0 and 1e3.
func parseInt(raw []byte) (int64, bool) {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		// Empty, or long enough to overflow: let strconv decide.
		n, err := strconv.ParseInt(string(raw), 10, 64)
		return n, err == nil
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if raw[0] == '-' {
		n = -n
	}
	return n, true
}
