package transport

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// Mcp-Name repeats params.name of tools/call and prompts/get and
// params.uri of resources/read. Every stateless POST of those methods
// needs it, and decoding the params with encoding/json to learn it cost a
// call about a tenth of its allocations; the params are usually plain
// (ASCII keys, the value a string without escapes), and then a walk over
// the top-level members finds it without allocating. Anything else takes
// encoding/json, so the result is always what json.Unmarshal gives.

// addressedName returns params.name of tools/call and prompts/get and
// params.uri of resources/read: what Mcp-Name carries.
func addressedName(method string, params []byte) (string, bool) {
	var key string
	switch method {
	case "tools/call", "prompts/get":
		key = "name"
	case "resources/read":
		key = "uri"
	default:
		return "", false
	}
	if v, ok, sure := scanAddressedName(params, key); sure {
		return v, ok
	}
	return unmarshalAddressedName(key, params)
}

// unmarshalAddressedName is addressedName by encoding/json: the rules the
// scan must agree with (members matched without regard to case, the last
// one wins, a null leaves the field alone, a name or uri of another type
// is an error even when the other one is wanted).
func unmarshalAddressedName(key string, params []byte) (string, bool) {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", false
	}
	if key == "uri" {
		return p.URI, true
	}
	return p.Name, true
}

// scanAddressedName finds member key (name or uri) of the JSON object
// params without allocating but for the value. sure is false when the
// params are not that simple (a key with an escape or a byte outside
// ASCII, a name or uri that is not a string without escapes in valid
// UTF-8): the caller then asks encoding/json.
func scanAddressedName(params []byte, key string) (v string, ok, sure bool) {
	if !json.Valid(params) {
		return "", false, true // json.Unmarshal fails too
	}
	i := jsonscan.SkipSpace(params, 0)
	if params[i] != '{' {
		// null leaves the struct alone; anything else is a type error.
		return "", params[i] == 'n', true
	}
	var found []byte
	i = jsonscan.SkipSpace(params, i+1)
	for params[i] == '"' {
		k0 := i + 1
		i = jsonscan.SkipString(params, i)
		k := params[k0 : i-1]
		for _, c := range k {
			if c == '\\' || c >= utf8.RuneSelf {
				return "", false, false
			}
		}
		i = jsonscan.SkipSpace(params, i)   // at ':'
		i = jsonscan.SkipSpace(params, i+1) // at the value
		v0 := i
		i = jsonscan.SkipValue(params, i)
		if asciiEqualFold(k, "name") || asciiEqualFold(k, "uri") {
			switch params[v0] {
			case 'n': // null: the field keeps what it had
			case '"':
				val := params[v0+1 : i-1]
				for _, c := range val {
					if c == '\\' {
						return "", false, false
					}
				}
				if !utf8.Valid(val) {
					return "", false, false
				}
				if asciiEqualFold(k, key) {
					found = val
				}
			default:
				return "", false, true // a type error
			}
		}
		i = jsonscan.SkipSpace(params, i)
		if params[i] == ',' {
			i = jsonscan.SkipSpace(params, i+1)
		}
	}
	return string(found), true, true
}

// asciiEqualFold reports whether k (ASCII) is want, a lower-case word,
// without regard to case.
func asciiEqualFold(k []byte, want string) bool {
	if len(k) != len(want) {
		return false
	}
	for i, c := range k {
		if c|0x20 != want[i] {
			return false
		}
	}
	return true
}
