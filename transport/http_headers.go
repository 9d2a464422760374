package transport

import (
	"net/http"
)

// The POSTs of a Streamable HTTP stream share one header map (stream.post,
// guarded by the stream's mu), so that a POST costs no header map of its
// own. It is read-only once built: a new session id or protocol version
// drops it, the next POST builds a new one, and a POST in flight keeps the
// map it was given. The rare requests (initialize, GET, DELETE) build theirs.

// initializeHeader is the header of an initialize request, which carries
// no session headers: the configured ones, Accept and Content-Type.
func (s *httpStream) initializeHeader() http.Header {
	h := baseHeader(s.cfg.Headers, s.url)
	h["Accept"] = acceptPOSTValue
	h["Content-Type"] = contentJSONValue
	return h
}

// postHeaderLocked returns the POSTs' header, building it if the session
// id or the version changed since it was built; the caller holds s.mu.
// It is built on first use: the values change twice during the handshake.
func (s *httpStream) postHeaderLocked() http.Header {
	if s.post == nil {
		h := s.initializeHeader()
		withSession(h, s.sessionID, s.version)
		s.post = h
	}
	return s.post
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

// postHeaders returns the header for a POST and what it carries;
// initialize requests carry neither the session id nor the version.
func (s *httpStream) postHeaders(initialize bool) (http.Header, sent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if initialize {
		return s.initializeHeader(), sent{gen: s.gen}
	}
	return s.postHeaderLocked(), sent{session: s.sessionID != "", gen: s.gen}
}

// otherHeaders returns a header for a GET or DELETE: the session headers,
// and accept and lastID when not empty.
func (s *httpStream) otherHeaders(accept, lastID string) (http.Header, sent) {
	h := baseHeader(s.cfg.Headers, s.url)
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
