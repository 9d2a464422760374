package cli

import "strings"

// minSecretLen is the shortest value Redact masks. Masking "1" or "on"
// would garble every message while protecting nothing; mcpwire's own
// messages never contain a secret at all, so this is the second line of
// defence, against text from transports and servers.
const minSecretLen = 6

// AddSecret registers a value (a bearer token, a header value, an env
// value) that must never reach the user's screen in an error message.
func (s *IOStreams) AddSecret(v string) {
	if len(v) >= minSecretLen {
		s.secrets = append(s.secrets, v)
		s.recording.addSecret(v)
	}
}

// Redact replaces every registered secret in text with "***".
func (s *IOStreams) Redact(text string) string {
	for _, v := range s.secrets {
		text = strings.ReplaceAll(text, v, "***")
	}
	return text
}
