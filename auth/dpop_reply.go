package auth

import "net/http"

// The DPoP headers in canonical form, for direct look-ups on every reply.
const (
	dpopNonceKey  = "Dpop-Nonce"
	dpopHeaderKey = "Dpop"
)

// AcceptedReply keeps the nonce that a resource server hands out with a
// reply it accepted (RFC 9449 sections 8 and 9: a server may give a new
// nonce with any reply, and expects it in the next proof), so that a
// nonce rotated on a success costs no use_dpop_nonce 401. The HTTP
// transports call it for every reply other than 401 or 403 to a request
// that Authorize prepared; a reply without a nonce, or to a request that
// carried no proof, costs a header look-up.
func (a *Authorizer) AcceptedReply(resp *http.Response) {
	v, ok := resp.Header[dpopNonceKey]
	if !ok || resp.Request == nil || len(resp.Request.Header[dpopHeaderKey]) == 0 {
		return
	}
	if len(v) != 1 || !validNonce(v[0]) {
		return // several or malformed: the next 401 says which one
	}
	a.setNonce(resp.Request.URL, v[0])
}
