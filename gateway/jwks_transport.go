package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// The gateway trusts whatever keys it fetches to sign every access token,
// so the issuer's metadata and key set are read over https only: over
// plain http anyone on the path could hand it their own key and sign
// tokens for any user. http is accepted on loopback alone, where there is
// no path (an authorization server on the same machine, a test).

// keyURLError says why u may not be fetched for keys, or nil.
func keyURLError(u *url.URL) error {
	if u.Scheme == "https" && u.Host != "" {
		return nil
	}
	if u.Scheme == "http" && u.Host != "" && origin.IsLoopbackHost(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("%s is not an https URL (plain http is for loopback only): the keys that sign access tokens must not be read over an open channel", redactURL(u.String()))
}

// errKeyRedirect ends a redirect the key fetches may not follow.
var errKeyRedirect = errors.New("redirect refused")

// keyClient is the client the key fetches use by default: bounded in
// time, and following a redirect only to where keyURLError allows, so
// that an https address cannot hand the fetch over to plain http.
func keyClient() *http.Client {
	return &http.Client{
		Timeout: jwksFetchTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return fmt.Errorf("%w: more than 5 redirects", errKeyRedirect)
			}
			if err := keyURLError(req.URL); err != nil {
				return fmt.Errorf("%w: %v", errKeyRedirect, err)
			}
			return nil
		},
	}
}
