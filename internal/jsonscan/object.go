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
