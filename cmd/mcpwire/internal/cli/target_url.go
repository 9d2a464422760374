package cli

import (
	"net/url"
	"strings"
)

// IsURL reports whether a command-line argument is meant as a server URL:
// it starts with http:// or https://, in any case. Resolve and the
// commands that tell a URL from a configured server's name share this one
// rule, so they never disagree about an argument.
func IsURL(arg string) bool {
	l := strings.ToLower(arg)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// otherSchemeURL reports the scheme of an argument written as a
// WebSocket URL (ws://, wss://), which people try for a server: MCP
// defines no WebSocket transport, so it gets an error naming the scheme,
// not a search among the configured servers' names. Other schemes stay
// arguments: "mcpwire read file:///x" reads a resource of the configured
// servers.
func otherSchemeURL(arg string) (string, bool) {
	scheme, _, ok := strings.Cut(arg, "://")
	if !ok {
		return "", false
	}
	switch l := strings.ToLower(scheme); l {
	case "ws", "wss":
		return l, true
	}
	return "", false
}

// ParseServerURL checks a server URL given on the command line, registers
// its secrets (AddURLSecrets) and returns the name to show for it: scheme,
// host and path, without user info, query or fragment.
func ParseServerURL(io *IOStreams, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", Usagef("the server URL is not valid")
	}
	io.AddURLSecrets(u)
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String(), nil
}

// AddURLSecrets registers u's password and query values with AddSecret:
// either may carry a credential (an API key in "?key=...").
func (s *IOStreams) AddURLSecrets(u *url.URL) {
	if pw, ok := u.User.Password(); ok {
		s.AddSecret(pw)
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			s.AddSecret(v)
		}
	}
}
