// Package seam holds the optional abilities that the module's own streams
// and authorizers offer the module's own client and transports, found by
// type assertion. They are private to the module on purpose (as the read
// modes of internal/readmode are): a transport of someone else's
// implements jsonrpc.Stream, an authorizer of someone else's implements
// transport.Authorizer, and these can change without breaking anyone.
package seam

import (
	"context"
	"net/http"
)

// ProtocolVersionSetter is a stream whose wire format depends on the
// negotiated protocol version (Streamable HTTP sends it as a header from
// 2025-06-18 on). The MCP client calls it right after the handshake.
type ProtocolVersionSetter interface {
	SetProtocolVersion(version string)
}

// Abandoner is a stream whose Close can end its peer at once instead of
// gracefully (a stdio child: SIGTERM now rather than after CloseTimeout,
// SIGKILL soon after). The MCP client calls Abandon before it closes a
// stream whose handshake ran out of time, so that Connect returns close to
// its ctx's deadline; a server that never answered gains nothing from a
// wait for its graceful exit.
type Abandoner interface {
	Abandon()
}

// InputPending is a stream that knows how much of what was written to it
// the server has not read yet (a stdio child's stdin pipe, on Linux). The
// MCP client's era probe waits for a server that has not read its probe
// yet, rather than taking its silence for a legacy server's.
type InputPending interface {
	// PendingInput returns the number of unread bytes; ok is false when
	// it cannot be known.
	PendingInput() (n int, ok bool)
}

// ListenerHolder is a stream that opens, once notifications/initialized
// went through, a channel on which the server may speak unprompted
// (Streamable HTTP's GET listener). The MCP client holds it back when the
// session has no use for what could arrive there: no notification
// callback and no server→client request declared. That saves a request
// and, with a server that keeps the stream open, a connection per session.
type ListenerHolder interface {
	// HoldListener keeps the channel closed until ReleaseListener. It is
	// called before notifications/initialized.
	HoldListener()
	// ReleaseListener lifts the hold: the channel opens at once if the
	// session is initialized, else after notifications/initialized, and
	// ReleaseListener waits, within ctx and a short bound, until it is
	// established. Without a hold it does nothing.
	ReleaseListener(ctx context.Context)
}

// AuthorizationObserver is an authorizer (auth.Authorizer) that wants to
// know when a request it prepared got a reply other than 401 or 403, to
// reset its budget of authorization attempts once credentials work. It
// must return promptly.
type AuthorizationObserver interface {
	Accepted(req *http.Request)
}

// AuthorizationReplyObserver is an authorizer that needs the headers of
// such a reply too: a DPoP resource server may hand out its next nonce in
// the DPoP-Nonce header of any reply (RFC 9449 sections 8 and 9), and the
// next proof should carry it rather than cost a 401. AcceptedReply is
// called after Accepted (when the authorizer has both) for every reply
// other than 401 or 403 to a request that Authorize prepared;
// resp.Request is that request. It must not read or close resp.Body, must
// not keep resp, and must return promptly.
type AuthorizationReplyObserver interface {
	AcceptedReply(resp *http.Response)
}

// CheckedResults is a stream whose responses all come out of the jsonrpc
// codec, which checked each frame whole as JSON before slicing the result
// out of it: a Response's Result is valid JSON, and its bytes are the
// response's own (a copy, or a frame the reader gave up), held by nobody
// else. The MCP client's page decoders then skip over values (a tool's
// schemas) instead of checking them a second time, and its text-result
// decoder unescapes texts in place, in a result it no longer needs as it
// came. A stream that builds or passes on responses of other origins
// returns false, or does not implement it. (A large result that the engine
// left unchecked reaches only a call that asked for it through
// latecheck.Params, whose decoder checks it.)
type CheckedResults interface {
	ResultsChecked() bool
}
