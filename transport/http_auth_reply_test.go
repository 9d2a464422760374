package transport

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
)

// replyAuthorizer is a fakeAuthorizer that also observes accepted replies.
type replyAuthorizer struct {
	fakeAuthorizer
	mu      sync.Mutex
	nonces  []string // the X-Next header of each accepted reply
	unknown int      // replies whose Request is not one Authorize prepared
}

func (r *replyAuthorizer) AcceptedReply(resp *http.Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if resp.Request == nil || resp.Request.Header.Get("Authorization") != "Bearer good" {
		r.unknown++
	}
	r.nonces = append(r.nonces, resp.Header.Get("X-Next"))
}

// An Authorizer with AcceptedReply sees the headers of each accepted
// reply, with the request it prepared, after Accepted; the challenged
// reply is not shown to it. Both ways of sending (the shared pool and the
// caller's client) do it.
func TestAuthorizerSeesAcceptedReplies(t *testing.T) {
	for _, hc := range []*http.Client{nil, {}} {
		via := "the shared pool"
		if hc != nil {
			via = "the caller's client"
		}
		srv := newBearerServer(t)
		var n atomic.Int32
		next := srv.Config.Handler
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Next", fmt.Sprintf("n%d", n.Add(1)))
			next.ServeHTTP(w, r)
		})
		auth := &replyAuthorizer{fakeAuthorizer: fakeAuthorizer{next: []string{"good"}}}
		s := httpConnect(t, &StreamableHTTP{URL: srv.URL, Auth: auth, HTTPClient: hc, DisableListener: true})
		for range 2 { // the server answers every request as id 1
			httpWrite(t, s, httpRequest(t, 1, "ping", nil))
			httpReadResponse(t, s, 1)
		}
		auth.mu.Lock()
		if len(auth.nonces) != 2 || auth.nonces[0] != "n2" || auth.nonces[1] != "n3" || auth.unknown != 0 {
			t.Errorf("via %s: replies seen = %q (%d without their request), want n2 and n3 (n1 was the 401)", via, auth.nonces, auth.unknown)
		}
		auth.fakeAuthorizer.mu.Lock()
		accepted := auth.accepted
		auth.fakeAuthorizer.mu.Unlock()
		if accepted != 2 {
			t.Errorf("via %s: Accepted calls = %d, want 2 alongside AcceptedReply", via, auth.accepted)
		}
		auth.mu.Unlock()
	}
}
