package jsonscan

// Object checks that b is one JSON object (with white space around it), as
// Valid would, and calls member with each member's key and value in one
// pass: a decoder that picks members out of a document checks it and
// walks it at once. The key is the raw content between the key's quotes,
// escapes not decoded; the value is a slice of b, capped. Object reports
// whether b was a valid object and member never returned false; on
// invalid input some members may have been seen before it says so.
func Object(b []byte, member func(key, value []byte) bool) bool {
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
		if end, ok = ValidMember(b, i, 1); !ok || !member(key, b[i:end:end]) {
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
