package gateway

import (
	"bytes"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
	"github.com/mcpwire/mcpwire/internal/server"
)

// passOn is the upstream's tools/call result as the gateway hands it to
// the host, made from the bytes the upstream sent (the MCP client decoded
// and checked them too): the members CallToolResult knows, as they came,
// and _meta without the upstream's serverInfo (the gateway speaks for
// itself). resultType is left out, as decoding left it out before: the
// server core adds the host's own in the 2026-07-28 era. Members
// CallToolResult does not know are dropped, as they were when the result
// was decoded and encoded again. ok is false for what this does not
// handle (an escaped or repeated member name, a known one in other case),
// which the caller then
// encodes from the decoded result as before.
func passOn(raw []byte) (out []byte, ok bool) {
	out = make([]byte, 0, len(raw))
	out = append(out, '{')
	var seen [4]bool
	ok = jsonscan.Object(raw, func(key, value []byte) bool {
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		var k int
		switch string(key) {
		case "content":
			k = 0
		case "structuredContent":
			k = 1
		case "isError":
			k = 2
		case "_meta":
			k = 3
			var plain bool
			if value, plain = metaWithoutServerInfo(value); !plain {
				return false
			}
		default:
			// encoding/json matches member names regardless of case:
			// "Content" was the content when decoded.
			for _, known := range knownMembers {
				if bytes.EqualFold(key, []byte(known)) {
					return false
				}
			}
			return true
		}
		if seen[k] {
			return false
		}
		seen[k] = true
		if value == nil || string(value) == "null" && (k == 2 || k == 3) {
			return true // nothing to pass on (omitempty's choice before)
		}
		out = appendMember(out, key, value)
		return true
	})
	return append(out, '}'), ok && seen[0]
}

var knownMembers = [...]string{"content", "structuredContent", "isError", "_meta"}

// metaWithoutServerInfo is a result's _meta without the upstream's
// serverInfo: value itself when it has none, nil when nothing is left.
func metaWithoutServerInfo(value []byte) ([]byte, bool) {
	if string(value) == "null" {
		return nil, true
	}
	if !bytes.Contains(value, []byte(server.MetaServerInfo)) {
		return value, !bytes.Contains(value, []byte{'\\'}) || metaKeysPlain(value)
	}
	out := make([]byte, 0, len(value))
	out = append(out, '{')
	ok := jsonscan.Object(value, func(key, v []byte) bool {
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		if string(key) == server.MetaServerInfo {
			return true
		}
		out = appendMember(out, key, v)
		return true
	})
	if !ok {
		return nil, false
	}
	if len(out) == 1 {
		return nil, true
	}
	return append(out, '}'), true
}

// metaKeysPlain says no member name of the _meta object value has an
// escape, which could spell serverInfo's name without its bytes.
func metaKeysPlain(value []byte) bool {
	return jsonscan.Object(value, func(key, _ []byte) bool { return bytes.IndexByte(key, '\\') < 0 })
}

// appendMember appends "key":value to the object out (which starts with
// its '{'), with the comma the members before it need.
func appendMember(out, key, value []byte) []byte {
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, '"')
	out = append(out, key...)
	out = append(out, '"', ':')
	return append(out, value...)
}
