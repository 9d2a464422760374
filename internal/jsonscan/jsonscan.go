// Package jsonscan finds where JSON values end, for the decoders that walk
// JSON already validated (by Valid, or json.Valid) to pick out a few
// members without reflection. The skipping functions report no syntax
// errors: on invalid input they stop at the end of the slice rather than
// panic, and what they return then means nothing. Valid is the check that
// comes first, with encoding/json's answer at several times its speed.
package jsonscan

// SkipSpace returns the index of the first byte at or after i that is
// not JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the string starting at b[i].
func SkipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		if i = PlainRun(b, i); i == len(b) {
			break
		}
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return min(i, len(b)) // an escape as the last byte steps past it
}

// SkipValue returns the index just past the value starting at b[i].
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = SkipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}
