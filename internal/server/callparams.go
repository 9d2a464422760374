package server

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// toolCallParams are the params of tools/call as the core reads them.
type toolCallParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      json.RawMessage `json:"_meta"`
	Task      json.RawMessage `json:"task"`
	// nameBytes is the name as the fast walk found it (plain, valid
	// UTF-8), with Name left empty: the caller looks the tool up by these
	// bytes and takes the registered tool's own string, rather than
	// making one for every call.
	nameBytes []byte
}

// name is the tool's name however it was decoded.
func (p *toolCallParams) name() string {
	if p.nameBytes != nil {
		return string(p.nameBytes)
	}
	return p.Name
}

// decodeToolCall reads the params of tools/call, and the progress token
// of their _meta. Every routed call of a gateway comes through here, so
// the usual shape (plain ASCII member names, a name without escapes) is
// picked out in one walk with jsonscan instead of two passes of
// encoding/json's reflection, which were a tenth of the gateway's CPU per
// call (bench/NOTES.md, "The gateway"). Anything else is decoded by
// encoding/json, whose answer (and error) the fast walk reproduces: a
// fuzz test holds the two together.
func decodeToolCall(params json.RawMessage) (p toolCallParams, token json.RawMessage, err error) {
	if fastToolCall(params, &p) && (len(p.Meta) == 0 || string(p.Meta) == "null" || fastProgressToken(p.Meta, &token)) {
		return p, token, nil
	}
	return decodeToolCallJSON(params)
}

// decodeToolCallJSON is decodeToolCall by encoding/json, in a function of
// its own so that only this path moves its values to the heap.
func decodeToolCallJSON(params json.RawMessage) (p toolCallParams, token json.RawMessage, err error) {
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return p, nil, invalidParams("tools/call: params: %v", err)
		}
	}
	if len(p.Meta) > 0 && string(p.Meta) != "null" {
		var meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		}
		if err := json.Unmarshal(p.Meta, &meta); err != nil {
			return p, nil, invalidParams("tools/call: params._meta: %v", err)
		}
		token = meta.ProgressToken
	}
	return p, token, nil
}

// fastToolCall fills p from params when they take the common shape, and
// reports false when encoding/json must decide.
func fastToolCall(params []byte, p *toolCallParams) bool {
	if len(params) == 0 {
		return true
	}
	return eachMember(params, func(key, v []byte) bool {
		switch string(key) {
		case "name":
			b, ok := plainStringBytes(v)
			p.Name, p.nameBytes = "", b
			return ok
		case "arguments":
			p.Arguments = v
		case "_meta":
			p.Meta = v
		case "task":
			p.Task = v
		default:
			return !foldsTo(key, "name", "arguments", "_meta", "task")
		}
		return true
	})
}

// fastProgressToken finds _meta's progressToken, as fastToolCall does.
func fastProgressToken(meta []byte, token *json.RawMessage) bool {
	return eachMember(meta, func(key, v []byte) bool {
		if string(key) == "progressToken" {
			*token = v
			return true
		}
		return !foldsTo(key, "progressToken")
	})
}

// foldsTo reports whether key, plain ASCII, would match one of the names
// the way encoding/json matches members (ignoring case), without being it:
// such a key is left to encoding/json.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if len(key) != len(n) {
			continue
		}
		same := true
		for i := range len(n) {
			if lower(key[i]) != lower(n[i]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// eachMember walks the JSON object b, checking every value, and calls fn
// with each member's name and value (a slice of b, capped). It reports
// false when b is not one valid object, a name is not plain ASCII (no
// escape, nothing encoding/json would fold or replace), or fn said so.
func eachMember(b []byte, fn func(key, v []byte) bool) bool {
	return jsonscan.Object(b, func(key, v []byte) bool {
		for _, c := range key {
			if c >= utf8.RuneSelf || c == '\\' {
				return false
			}
		}
		return fn(key, v)
	})
}

// plainStringBytes returns the bytes of the JSON string v holds when it
// needs no decoding: no escape and valid UTF-8 (encoding/json would
// replace invalid bytes). They are v's own, never nil when ok.
func plainStringBytes(v []byte) ([]byte, bool) {
	if len(v) < 2 || v[0] != '"' {
		return nil, false
	}
	end := jsonscan.PlainRun(v, 1)
	if end != len(v)-1 || !utf8.Valid(v[1:end]) {
		return nil, false
	}
	return v[1:end:end], true
}
