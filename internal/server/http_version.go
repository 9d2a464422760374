package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The MCP-Protocol-Version header of the older eras' Streamable HTTP
// (2025-06-18 and later; the 2026-07-28 requests have rules of their own,
// checkModernHeaders). The spec: "If the server receives a request with an
// invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad
// Request." A header is checked twice: against every version the server
// speaks (versionHeaderSupported, before the request is routed), then,
// in a session, against the version that session negotiated
// (versionHeaderMatches). A request without the header is served: the spec
// has the server use the version negotiated at initialization, and only
// without one assume 2025-03-26.

// versionHeaderSupported answers 400 to a request whose header names a
// version this server does not speak, listing those it does, and reports
// whether the request may go on. body is the request's, not yet decoded:
// the refusal reads the request's id from it (null when it has none).
func (h *HTTPHandler) versionHeaderSupported(w http.ResponseWriter, r *http.Request, body []byte) bool {
	v := r.Header.Get(headerVersion)
	if v == "" || h.speaksVersion(v) {
		return true
	}
	e := jsonrpc.NewError(-32000, fmt.Sprintf("Bad Request: Unsupported protocol version: %s (supported: %s)", v, strings.Join(h.spokenVersions(), ", ")))
	httpErrorFor(w, http.StatusBadRequest, readableID(body), e)
	return false
}

// versionHeaderMatches answers 400 to a request of session o whose header
// names another version than the one o negotiated, naming both, and
// reports whether the request may go on. A session that has not yet
// answered initialize has no version to hold the header to. reqID is the
// request's id, zero when it has none (a notification, a GET).
func (h *HTTPHandler) versionHeaderMatches(w http.ResponseWriter, r *http.Request, o *httpOut, reqID jsonrpc.ID) bool {
	v := r.Header.Get(headerVersion)
	if v == "" {
		return true // the common case before 2025-06-18: no lock taken
	}
	negotiated := o.ss.ProtocolVersion()
	if negotiated == "" || v == negotiated {
		return true
	}
	e := jsonrpc.NewError(-32000, fmt.Sprintf("Bad Request: MCP-Protocol-Version header %s does not match this session's protocol version %s, negotiated at initialize", v, negotiated))
	httpErrorFor(w, http.StatusBadRequest, reqID, e)
	return false
}

// speaksVersion reports whether v is a version of either era this
// server serves.
func (h *HTTPHandler) speaksVersion(v string) bool {
	s := h.srv
	if slices.Contains(s.opts.SupportedVersions, v) {
		return true
	}
	return s.opts.Eras != LegacyOnly && slices.Contains(s.modernVersions(), v)
}

// spokenVersions lists the versions speaksVersion accepts, oldest first.
func (h *HTTPHandler) spokenVersions() []string {
	s := h.srv
	out := slices.Clone(s.opts.SupportedVersions)
	if s.opts.Eras != LegacyOnly {
		out = append(out, s.modernVersions()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
