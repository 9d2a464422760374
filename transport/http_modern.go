package transport

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/paramheader"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The stateless era of MCP (2026-07-28 and later) changes the wire rules
// of Streamable HTTP: every POST names its method (Mcp-Method) and, for
// the methods that address one thing, that thing (Mcp-Name); there is no
// session, no GET listener, no DELETE and no resumption; closing a
// request's reply stream is how it is cancelled. The client above tells
// the stream the era through seam.ProtocolVersionSetter: a version of the
// stateless era switches the stream to these rules before the first
// request goes out. The legacy path pays one atomic load per POST.

const (
	headerMcpMethod = "Mcp-Method"
	headerMcpName   = "Mcp-Name"

	// firstStatelessVersion is the first revision of the stateless era.
	firstStatelessVersion = "2026-07-28"

	headerBase64Prefix = "=?base64?"
	headerBase64Suffix = "?="
)

// isStatelessVersion reports whether v is a revision of the stateless era
// (revisions are dates, so they compare as strings).
func isStatelessVersion(v string) bool {
	return v >= firstStatelessVersion && isVisibleASCII(v)
}

// statelessHeader returns a new header map: head's, plus the Mcp-Method
// and Mcp-Name of the message and its Mcp-Param-* headers (mirror).
func statelessHeader(head postHead, method string, params []byte, mirror []paramheader.Header) http.Header {
	out := head.fill(make(http.Header, len(head.base)+4+len(mirror)), new([2]string))
	addStatelessHeader(out, method, params, mirror, new([2]string))
	return out
}

// addStatelessHeader adds to out the Mcp-Method and Mcp-Name of the
// message and its Mcp-Param-* headers. vals holds the values of Mcp-Method
// and Mcp-Name, so that a caller that reuses out and vals for its POSTs (a
// postCall does, as it reuses its request) builds the header without
// allocating.
func addStatelessHeader(out http.Header, method string, params []byte, mirror []paramheader.Header, vals *[2]string) {
	vals[0] = headerValue(method)
	out[headerMcpMethod] = vals[0:1:1]
	if name, ok := addressedName(method, params); ok {
		vals[1] = headerValue(name)
		out[headerMcpName] = vals[1:2:2]
	}
	addParamHeaders(out, mirror)
}

// headerValue returns s as it travels in an Mcp- header: as is when it is
// printable ASCII without edge whitespace (and does not look encoded),
// else as =?base64?…?= of its UTF-8 bytes.
func headerValue(s string) string {
	plain := s == strings.TrimSpace(s) && !strings.HasPrefix(s, headerBase64Prefix)
	for i := 0; plain && i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			plain = false
		}
	}
	if plain {
		return s
	}
	return headerBase64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + headerBase64Suffix
}

// statelessStreamBroken is the in-band failure of a call whose reply
// stream broke before its response in the stateless era, which has no
// resumption: the request was not safe to send again, or its re-issue
// broke too.
func (s *httpStream) statelessStreamBroken(call *postCall, cause string, reissued bool) {
	why := "the request was not sent again as it may have taken effect"
	if reissued {
		why = "it was sent once more with a new id, and that reply broke too"
	}
	s.failCall(call, codeTransportError, fmt.Sprintf("transport: the SSE stream for %s (id %s) from %s broke before its response (%s); the %s era cannot resume a stream, and %s",
		call.method, call.id, s.redacted(), cause, firstStatelessVersion, why))
}

// safeToReissue reports whether a request whose reply broke may be sent
// again: the requests that change nothing (tools/call only when the
// configuration says tool calls may be replayed).
func (s *httpStream) safeToReissue(method string) bool {
	return method == "server/discover" || s.replayable(method)
}

// reissue sends call's request once more under a new id, as the stateless
// era asks of a request whose reply stream broke (the old id may still be
// in use on the server). A JSON reply is delivered here, with its response
// given back the call's id; an event stream's body is returned for the
// caller to read with onMsg, which does the same. ok is false once the
// call has its outcome (or was stopped).
func (s *httpStream) reissue(call *postCall, cause string, onMsg func(jsonrpc.Message) bool) (body io.ReadCloser, id jsonrpc.ID, ok bool) {
	id = jsonrpc.StringID("mcpwire-reissue-" + strconv.FormatUint(s.reissues.Add(1), 10))
	fail := func(format string, args ...any) (io.ReadCloser, jsonrpc.ID, bool) {
		s.failCall(call, codeTransportError, fmt.Sprintf("transport: the SSE stream for %s (id %s) from %s broke before its response (%s), and sending it again failed: %s",
			call.method, call.id, s.redacted(), cause, fmt.Sprintf(format, args...)))
		return nil, id, false
	}
	msg, err := jsonrpc.DecodeMessage(call.body)
	req, isReq := msg.(*jsonrpc.Request)
	if err != nil || !isReq {
		return fail("the request could not be read back: %v", err)
	}
	again := *req
	again.ID = id
	b, err := jsonrpc.AppendMessage(nil, &again)
	if err != nil {
		return fail("encoding: %v", err)
	}
	s.hook(fmt.Errorf("transport: the SSE stream for %s (id %s) from %s broke (%s); sending the request again as id %s", call.method, call.id, s.redacted(), cause, id))
	head, _ := s.postHeaders(false)
	resp, err := s.sender.do(newHTTPRequest(call.ctx, http.MethodPost, s.ep.url, statelessHeader(head, call.method, call.params, call.mirror), b), b)
	if call.ctx.Err() != nil {
		if err == nil {
			resp.Body.Close()
		}
		return nil, id, false
	}
	if err != nil {
		return fail("%v", s.requestError(http.MethodPost, call.method, err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		readErrorBody(resp)
		return fail("%v", newHTTPError(resp, http.MethodPost))
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case isMediaType(ct, "text/event-stream"):
		return resp.Body, id, true
	case !isMediaType(ct, "application/json"):
		resp.Body.Close()
		return fail("the reply is %q, not JSON or an event stream", clip(ct, 100))
	}
	data, err := readLimited(resp.Body, resp.ContentLength, s.ep.maxBody)
	resp.Body.Close()
	if err != nil {
		return fail("reading the reply: %v", err)
	}
	msgs, derr := jsonrpc.AppendFrame(nil, data)
	for _, m := range msgs {
		if onMsg(m) {
			return nil, id, false
		}
	}
	if derr != nil {
		return fail("the reply carried no response to it (%s)", decodeReason(derr))
	}
	return fail("the reply carried no response to it")
}
