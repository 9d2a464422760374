package config

import (
	"encoding/json"
	"errors"
)

// A small scanner over JSON that encoding/json has already accepted. It
// exists for two things a map cannot give: the order of an object's keys
// (servers load in the order the file lists them) and the byte offset of
// every key and value (problems point at the line the user must fix).

// member is one key and value of a JSON object, with absolute offsets into
// the document.
type member struct {
	Key    string
	KeyOff int
	Value  []byte
	ValOff int
}

// element is one value of a JSON array.
type element struct {
	Value  []byte
	ValOff int
}

// errNotValidJSON is what the scanner returns on JSON encoding/json would
// have refused; it never reaches a caller of the package.
var errNotValidJSON = errors.New("config: scanner met invalid JSON")

// jsonKind names the JSON type of a valid value, for messages such as
// "want a string, got number".
func jsonKind(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func isNull(v []byte) bool { return string(v) == "null" }

// objectMembers lists the members of the object v, which starts at
// absolute offset base of its document. v must be valid JSON; an object is
// expected, and any other kind returns nil, false.
func objectMembers(v []byte, base int) ([]member, bool) {
	if jsonKind(v) != "object" {
		return nil, false
	}
	var out []member
	i := skipSpace(v, 1)
	for i < len(v) && v[i] != '}' {
		keyEnd, err := stringEnd(v, i)
		if err != nil {
			return out, false
		}
		var key string
		if json.Unmarshal(v[i:keyEnd], &key) != nil {
			return out, false
		}
		keyOff := i
		i = skipSpace(v, keyEnd)
		if i >= len(v) || v[i] != ':' {
			return out, false
		}
		i = skipSpace(v, i+1)
		end, err := valueEnd(v, i)
		if err != nil {
			return out, false
		}
		out = append(out, member{Key: key, KeyOff: base + keyOff, Value: v[i:end], ValOff: base + i})
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return out, true
}

// arrayElements lists the elements of the array v at offset base.
func arrayElements(v []byte, base int) ([]element, bool) {
	if jsonKind(v) != "array" {
		return nil, false
	}
	var out []element
	i := skipSpace(v, 1)
	for i < len(v) && v[i] != ']' {
		end, err := valueEnd(v, i)
		if err != nil {
			return out, false
		}
		out = append(out, element{Value: v[i:end], ValOff: base + i})
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return out, true
}

func skipSpace(v []byte, i int) int {
	for i < len(v) && isJSONSpace(v[i]) {
		i++
	}
	return i
}

// stringEnd returns the offset just past the string that starts at v[i].
func stringEnd(v []byte, i int) (int, error) {
	if i >= len(v) || v[i] != '"' {
		return 0, errNotValidJSON
	}
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errNotValidJSON
}

// valueEnd returns the offset just past the value that starts at v[i].
func valueEnd(v []byte, i int) (int, error) {
	if i >= len(v) {
		return 0, errNotValidJSON
	}
	switch v[i] {
	case '"':
		return stringEnd(v, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(v); j++ {
			switch v[j] {
			case '"':
				end, err := stringEnd(v, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errNotValidJSON
	}
	j := i
	for j < len(v) && !isJSONSpace(v[j]) && v[j] != ',' && v[j] != '}' && v[j] != ']' {
		j++
	}
	if j == i {
		return 0, errNotValidJSON
	}
	return j, nil
}
