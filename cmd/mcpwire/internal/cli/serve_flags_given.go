package cli

import (
	"strings"

	"github.com/mcpwire/mcpwire/gateway"
)

// listenOnlyGiven names the flags given that only --listen takes, so that
// a --stdio run that has some is told which, not all nine.
func (o *gatewayOptions) listenOnlyGiven() []string {
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--allowed-host", len(o.AllowedHosts) > 0},
		{"--legacy-sse", o.LegacySSE},
		{"--auth-token-env", o.AuthTokenEnv != ""},
		{"--session-key-file", o.SessionKey != ""},
		{"--session-max-age", o.SessionAge != defaultSessionMaxAge},
		{"--session-idle-timeout", o.SessionIdle != defaultSessionIdle},
		{"--max-sessions", o.MaxSessions != defaultMaxSessions},
		{"--max-stateless-requests", o.MaxStateless != gateway.DefaultMaxStatelessRequests},
		{"--drain", o.Drain != 0},
	} {
		if f.set {
			given = append(given, f.name)
		}
	}
	return given
}

// joinAnd joins words as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// isAre is the verb for n subjects.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
