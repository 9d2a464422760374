package inspect

import (
	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// redactJSON applies redact to every string of the JSON value b, object
// keys included, so that what a server sends back reaches the page with
// the secrets the command knows masked, as the CLI masks them in a
// result it prints (a stdio server that echoes its --env token, say).
// Each string's decoded text is masked, so a secret is found however the
// server escaped it. b comes back as it is when redact changes nothing,
// or b is not JSON; else only the masked strings differ.
func redactJSON(b []byte, redact func(string) string) []byte {
	if redact == nil || !jsonscan.Valid(b) {
		return b
	}
	b, _ = jsonscan.MapStrings(b, redact)
	return b
}
