package transport

import (
	"net/http"
)

// A POST's header is the endpoint's postBase (read-only, maybe shared by
// many streams) plus the session id and protocol version. A session keeps
// no map of its own for it: a POST fills the map of its pooled postCall
// (see postHead.fill), which stays with the call across uses, so that an
// idle session holds no header map and a POST allocates none. The rare
// requests (GET, DELETE, a renewal's) build theirs.

// postHead is what a POST's header is made of.
type postHead struct {
	base             http.Header // the endpoint's postBase: never written
	session, version string      // "" when not sent
}

// fill makes out (emptied first) the header of h, and returns it (made
// when nil). vals holds the values of the session headers (or "" for one
// not sent), so that a caller that reuses out and vals (a postCall does)
// allocates nothing.
func (h postHead) fill(out http.Header, vals *[2]string) http.Header {
	if out == nil {
		out = make(http.Header, len(h.base)+4)
	}
	clear(out)
	for k, v := range h.base {
		out[k] = v
	}
	*vals = [2]string{h.session, h.version}
	if h.session != "" {
		out[headerSessionID] = vals[0:1:1]
	}
	if h.version != "" {
		out[canonicalProtocolVersion] = vals[1:2:2]
	}
	return out
}

// filled reports whether out, filled by fill from a postHead of the
// endpoint ep with vals, is h's header already: the usual case of a
// pooled postCall, whose last POST went to the same session.
func (h postHead) filled(out http.Header, vals *[2]string, from, ep *httpEndpoint) bool {
	return out != nil && from == ep && h.base != nil && *vals == [2]string{h.session, h.version}
}

// canonicalProtocolVersion is headerProtocolVersion as a header map keys it.
var canonicalProtocolVersion = http.CanonicalHeaderKey(headerProtocolVersion)

// postHeaders is postHeadersLocked for a caller that does not hold s.mu.
func (s *httpStream) postHeaders(initialize bool) (postHead, sent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.postHeadersLocked(initialize)
}

// postHeadersLocked returns what a POST's header is made of and what it
// carries; initialize requests carry neither the session id nor the
// version. The caller holds s.mu.
func (s *httpStream) postHeadersLocked(initialize bool) (postHead, sent) {
	h := postHead{base: s.ep.postBase}
	if initialize {
		return h, sent{gen: s.gen}
	}
	h.session = s.sessionID
	if sendsVersionHeader(s.version) {
		h.version = s.version
	}
	return h, sent{session: s.sessionID != "", gen: s.gen}
}

// otherHeaders returns a header for a GET or DELETE: the session headers,
// and accept and lastID when not empty.
func (s *httpStream) otherHeaders(accept, lastID string) (http.Header, sent) {
	h := baseHeader(s.ep.cfg.Headers, s.ep.url)
	s.mu.Lock()
	withSession(h, s.sessionID, s.version)
	info := sent{session: s.sessionID != "", gen: s.gen}
	s.mu.Unlock()
	if accept != "" {
		h.Set("Accept", accept)
	}
	if lastID != "" {
		h.Set(headerLastEventID, lastID)
	}
	return h, info
}

// withSession adds the session id and, from 2025-06-18 on, the protocol
// version.
func withSession(h http.Header, sessionID, version string) {
	if sessionID != "" {
		h.Set(headerSessionID, sessionID)
	}
	if sendsVersionHeader(version) {
		h.Set(headerProtocolVersion, version)
	}
}
