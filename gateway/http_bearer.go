package gateway

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// bearerCheck lets a request through only when it carries the static
// token as "Authorization: Bearer TOKEN". The token is compared in
// constant time and never written anywhere; a refusal is 401 with the
// WWW-Authenticate challenge RFC 6750 describes, so a host knows to send
// a bearer token.
type bearerCheck struct {
	token []byte
	next  http.Handler
}

func (b *bearerCheck) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// No credentials, or another scheme: RFC 6750 (3.1) asks for
		// the bare challenge, with no error code.
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcpwire serve"`)
		http.Error(w, "Unauthorized: send the gateway's token as Authorization: Bearer TOKEN", http.StatusUnauthorized)
		return
	}
	if subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), b.token) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcpwire serve", error="invalid_token"`)
		http.Error(w, "Unauthorized: the bearer token is not the gateway's", http.StatusUnauthorized)
		return
	}
	b.next.ServeHTTP(w, withPeer(withoutCredentials(r), "token"))
}
