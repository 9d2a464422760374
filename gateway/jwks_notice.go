package gateway

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// While the key set cannot be fetched every token is refused, and the
// hosts are the only ones told: the operator, who is the one able to fix
// the issuer's address, its certificate or the network, saw nothing on
// stderr. Each failed fetch (at most one per floor, so at most two lines a
// minute) is now reported through the gateway's Warn, with the cause the
// hosts' 401 leaves out: "connection refused", an unknown certificate
// authority, a timeout. The hosts keep the short form, since a peer that
// has not authenticated should not learn the internal addresses and names
// a dial error carries.

// fetchFailure is a GET of the metadata or key set that got no answer.
// Error is the hosts' form; detail adds the cause, for the operator.
type fetchFailure struct {
	url   string // redacted
	cause error
}

func (f *fetchFailure) Error() string { return "GET " + f.url + ": the request failed" }

func (f *fetchFailure) Unwrap() error { return f.cause }

// newFetchFailure keeps the cause without the URL an *url.Error quotes,
// query and all.
func newFetchFailure(u string, err error) *fetchFailure {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &fetchFailure{url: redactURL(u), cause: err}
}

// detailed is err's text with each fetch failure in it given its cause.
func detailed(err error) string {
	msg := err.Error()
	var walk func(error)
	walk = func(e error) {
		if f, ok := e.(*fetchFailure); ok && f.cause != nil {
			msg = strings.Replace(msg, f.Error(), f.Error()+" ("+f.cause.Error()+")", 1)
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		case interface{ Unwrap() error }:
			if next := u.Unwrap(); next != nil {
				walk(next)
			}
		}
	}
	walk(err)
	return msg
}

// reportFailedFetch tells the operator that the key set could not be had
// and what that means for tokens now.
func (s *keySet) reportFailedFetch(err error, held bool) {
	if s.warn == nil {
		return
	}
	what := "every access token is refused"
	if held {
		what = "tokens under the keys already held still pass, others are refused"
	}
	s.warn(fmt.Errorf("OAuth: fetching the key set of %s failed: %s; %s until the next try, in %s",
		redactURL(s.issuer), detailed(err), what, s.floor))
}
