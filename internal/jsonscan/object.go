package jsonscan

// Object checks that b is one JSON object (with white space around it), as
// Valid would, and calls member with each member's key and value in one
// pass: a decoder that picks members out of a document checks it and
// walks it at once. The key is the raw content between the key's quotes,
// escapes not decoded; the value is a slice of b, capped. Object reports
// whether b was a valid object and member never returned false; on
// invalid input some members may have been seen before it says so.
func Object(b []byte, member func(key, value []byte) bool) bool {
	return ObjectLeaving(b, "", func(key, value []byte, _ bool) bool { return member(key, value) })
}

// ObjectLeaving is Object, except that the value of a member whose raw key
// is leave (not empty) is not checked: SkipQuoted finds its end, and
// member is told (left) that its value is unchecked. The jsonrpc codec
// leaves a large response's result to the one consumer that checks it
// while decoding it (bench/NOTES.md, the seventeenth round). Whether b is
// valid then depends on the values left as well: b is valid JSON if and
// only if ObjectLeaving accepts it and each value left is valid.
func ObjectLeaving(b []byte, leave string, member func(key, value []byte, left bool) bool) bool {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return SkipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end, ok := ValidValue(b, i)
		if !ok {
			return false
		}
		key := b[i+1 : end-1]
		i = SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = SkipSpace(b, i+1)
		left := leave != "" && string(key) == leave
		if left {
			end = SkipQuoted(b, i)
			ok = end > i
		} else {
			end, ok = ValidMember(b, i, 1)
		}
		if !ok || !member(key, b[i:end:end], left) {
			return false
		}
		i = SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = SkipSpace(b, i+1)
			continue
		}
		return i < len(b) && b[i] == '}' && SkipSpace(b, i+1) == len(b)
	}
}

// ObjectLast is Object for an object whose member last usually comes last,
// as a JSON-RPC response's "result" does after "jsonrpc" and "id": the
// members before it are checked and handed to member, and the value of
// the first member named last is not walked at all but guessed to be all
// that is left before the object's closing brace. ok says that last was
// found after valid members and the guess could be made (a non-empty
// value, the object closed by the input's last byte). b is then valid
// JSON if the guessed value is one valid JSON value; if it is not, the
// guess may simply have been wrong (more members followed), which only a
// walk of b can tell. Members after the first one named last are not seen.
func ObjectLast(b []byte, last string, member func(key, value []byte) bool) (value []byte, ok bool) {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = SkipSpace(b, i+1)
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		end, ok := ValidValue(b, i)
		if !ok {
			return nil, false
		}
		key := b[i+1 : end-1]
		i = SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = SkipSpace(b, i+1)
		if string(key) == last {
			j := len(b)
			for j > i && isSpace(b[j-1]) {
				j--
			}
			if j <= i || b[j-1] != '}' {
				return nil, false
			}
			j--
			for j > i && isSpace(b[j-1]) {
				j--
			}
			if j <= i {
				return nil, false
			}
			return b[i:j:j], true
		}
		if end, ok = ValidMember(b, i, 1); !ok || !member(key, b[i:end:end]) {
			return nil, false
		}
		i = SkipSpace(b, end)
		if i >= len(b) || b[i] != ',' {
			return nil, false // closed, or broken, before last
		}
		i = SkipSpace(b, i+1)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
