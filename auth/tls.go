package auth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// ErrInsecureHTTP: a URL that would carry tokens, codes or client
// credentials (or decide where they go) is plain http on a host other than
// loopback. OAuth 2.1 sends them only over TLS; Options.AllowInsecureHTTP
// relaxes this for a lab setup.
var ErrInsecureHTTP = errors.New("auth: plain http outside loopback")

// insecureHint tells the user how to get past ErrInsecureHTTP.
const insecureHint = "use https, or for a lab network you trust set AllowInsecureHTTP (\"allowInsecureHttp\": true in the server's \"oauth\" block)"

// secureEnough reports whether u may carry OAuth secrets: https, or http
// to loopback (RFC 8252 native apps, local servers, tests).
func secureEnough(u *url.URL) bool {
	return strings.EqualFold(u.Scheme, "https") ||
		(strings.EqualFold(u.Scheme, "http") && origin.IsLoopbackHost(u.Hostname()))
}

// requireTLS refuses a plain-http URL outside loopback unless the options
// allow it, and a link-local target always (see ErrLinkLocal). what names the URL's role ("token_endpoint", "issuer", ...).
func (a *Authorizer) requireTLS(what, raw string) error {
	if err := refuseLinkLocal(what, raw); err != nil {
		return err
	}
	if a.opts.AllowInsecureHTTP {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || secureEnough(u) {
		return nil // unparsable URLs are refused where they are used
	}
	return fmt.Errorf("%w: the %s %s would carry credentials in clear text; %s", ErrInsecureHTTP, what, redactURL(raw), insecureHint)
}

// cleartextErr is the error for a sign-in to a plain-http server outside
// loopback: the token would never be sent, so none is obtained.
func (a *Authorizer) cleartextErr() error {
	return fmt.Errorf("%w: the server %s asks for authorization, and a token sent to it would travel in clear text; %s", ErrInsecureHTTP, a.redacted, insecureHint)
}
