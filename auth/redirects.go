package auth

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// errRedirected is the problem of a token or registration request that
// was answered with a redirect.
const errRedirected = "the endpoint answered with a redirect, which is not followed for token and registration requests (it would re-post the code, verifier and client credentials elsewhere)"

// postClient is the HTTP client for token and registration requests: it
// follows no redirect, so a 307 cannot re-post the code, the verifier and
// the client's credentials to another address.
func postClient(base *http.Client) *http.Client {
	c := *base
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// metadataClient is the HTTP client for metadata requests: a redirect is
// followed only within the origin that was asked (which also refuses
// https to http), since metadata decides where credentials go. A given
// client's own redirect policy still applies after that.
func metadataClient(base *http.Client) *http.Client {
	c := *base
	own := base.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if !origin.Same(req.URL, via[0].URL) {
			return fmt.Errorf("refusing a redirect from %s to another origin, %s", redactParsed(via[0].URL), redactParsed(req.URL))
		}
		if own != nil {
			return own(req, via)
		}
		return nil
	}
	return &c
}
