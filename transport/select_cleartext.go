package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/origin"
)

// ErrInsecureHTTP is what FromServer's error wraps when a server's
// configured headers would travel in clear text: its URL is plain http
// and its host is not this machine. It is a distinct value from
// auth.ErrInsecureHTTP (the same rule for OAuth), which transport cannot
// import; a caller that reports both tests for each.
var ErrInsecureHTTP = errors.New("transport: plain http outside loopback")

// checkCleartextHeaders refuses a server whose configured headers, or the
// credentials in its URL, would cross the network unencrypted. Every configured header counts: hosts'
// configs put API keys and tokens in headers of any name
// ("Authorization", "X-API-Key", a vendor's own), and mcpwire treats every
// header value as a secret. Loopback is exempt (nothing crosses a
// network), as OAuth 2.1 exempts it; s.OAuth's "allowInsecureHttp", the
// same key that lets OAuth run over plain http, or
// ServerOptions.AllowInsecureHTTP lifts the rule for a lab network.
//
// The check is here, where a server's description becomes a transport,
// and not in the transports: a Go caller who builds a StreamableHTTP with
// Headers itself has chosen what to send where, while a config file may
// have been written for another URL.
func checkCleartextHeaders(s *config.Server, u *url.URL, o ServerOptions) error {
	if (len(s.Headers) == 0 && u.User == nil) || o.AllowInsecureHTTP || !strings.EqualFold(u.Scheme, "http") || origin.IsLoopbackHost(u.Hostname()) || oauthAllowsInsecure(s.OAuth) {
		return nil
	}
	names := make([]string, 0, len(s.Headers))
	for k := range s.Headers {
		names = append(names, fmt.Sprintf("%q", clipRunes(k, 60)))
	}
	slices.Sort(names)
	var sent []string
	if len(names) > 0 {
		sent = append(sent, "the header "+strings.Join(names, ", "))
	}
	if u.User != nil {
		// The transports send it as Basic credentials, an Authorization
		// header like any other.
		sent = append(sent, "the URL's user name and password (sent as Authorization)")
	}
	what := "server"
	if s.Name != "" {
		what = "server " + quoteServer(s.Name)
	}
	return fmt.Errorf("%w: %s: %s would travel in clear text to %s (plain http to another machine); use https, or, only on a network you trust, set \"allowInsecureHttp\": true in the server's \"oauth\" block",
		ErrInsecureHTTP, what, strings.Join(sent, " and "), u.Host)
}

// oauthAllowsInsecure reads "allowInsecureHttp" from a server's "oauth"
// block; the auth package reads the rest of it.
func oauthAllowsInsecure(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var doc struct {
		AllowInsecureHTTP bool `json:"allowInsecureHttp"`
	}
	return json.Unmarshal(raw, &doc) == nil && doc.AllowInsecureHTTP
}
