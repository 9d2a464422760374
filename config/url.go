package config

import (
	"net/url"
	"strings"
)

// checkURL validates a server URL after expansion and returns a problem
// message, or "". Messages never quote the expanded URL, which may carry
// a token in its user info, path or query; at most they show scheme and
// host of the URL as written (see describeURL).
func checkURL(expanded, written string) string {
	if strings.TrimSpace(expanded) == "" {
		return "empty URL"
	}
	u, err := url.Parse(expanded)
	if err != nil {
		// url.Parse quotes its input in the error: don't pass it on.
		return "not a valid URL" + describeURL(written)
	}
	switch {
	case u.Scheme == "ws" || u.Scheme == "wss":
		return "WebSocket URLs are not supported: want http:// or https://" + describeURL(written)
	case u.Scheme != "http" && u.Scheme != "https":
		return "want an absolute http:// or https:// URL" + describeURL(written)
	case u.Host == "" || u.Hostname() == "":
		return "the URL has no host" + describeURL(written)
	}
	return ""
}

// describeURL returns " (scheme://host/…)" for the URL as written, without
// user info, path, query or fragment, or "" when that much cannot be told
// safely (a ${VAR} in the host, say).
func describeURL(written string) string {
	u, err := url.Parse(written)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return ""
	}
	safe := url.URL{Scheme: u.Scheme, Host: u.Host}
	s := safe.String()
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		s += "/…"
	}
	return " (" + s + ")"
}
