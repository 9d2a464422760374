package auth

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// A resource server that rotates its nonce on every 200 (RFC 9449
// section 8) costs one use_dpop_nonce 401, the first: each later proof
// carries the nonce of the reply before.
func TestDPoPNonceFromSuccessfulReplies(t *testing.T) {
	w, d := newDPoPWorld(t)
	d.rsNonce = "rs-nonce-0"
	rotations := 0
	w.mcpHook = func(rw http.ResponseWriter, r *http.Request) bool {
		if d.mcp(rw, r) {
			return true // a 401: bad proof or stale nonce
		}
		if r.Header.Get("DPoP") != "" { // accepted: the world answers 200
			rotations++
			d.rsNonce = fmt.Sprintf("rs-nonce-%d", rotations)
			rw.Header().Set("DPoP-Nonce", d.rsNonce)
		}
		return false
	}
	a := newAuth(t, w, nil)
	for _, m := range []string{"ping", "tools/list", "ping", "prompts/list", "ping"} {
		mustCall(t, w, a, m)
	}
	d.check(t)
	w.mu.Lock()
	defer w.mu.Unlock()
	if rotations != 5 {
		t.Fatalf("accepted requests = %d, want 5", rotations)
	}
	if d.rsAsked != 1 {
		t.Errorf("use_dpop_nonce 401s = %d, want 1 (only before the first nonce)", d.rsAsked)
	}
}

// Only a single valid nonce on a reply to a request with a proof is kept.
func TestDPoPNonceFromRepliesIsChecked(t *testing.T) {
	a, err := New("https://mcp.example.com/mcp", &Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("https://mcp.example.com/mcp")
	a.setNonce(u, "kept")
	reply := func(proof bool, nonces ...string) *http.Response {
		req := &http.Request{Method: http.MethodPost, URL: u, Header: http.Header{}}
		if proof {
			req.Header.Set("DPoP", "a.b.c")
		}
		resp := &http.Response{StatusCode: 200, Header: http.Header{}, Request: req}
		for _, n := range nonces {
			resp.Header.Add("DPoP-Nonce", n)
		}
		return resp
	}
	for _, c := range []struct {
		name string
		resp *http.Response
	}{
		{"no proof sent", reply(false, "new")},
		{"no nonce", reply(true)},
		{"two nonces", reply(true, "one", "two")},
		{"a quote in it", reply(true, `bad"nonce`)},
		{"empty", reply(true, "")},
		{"no request", &http.Response{StatusCode: 200, Header: http.Header{"Dpop-Nonce": {"new"}}}},
	} {
		a.AcceptedReply(c.resp)
		if got := a.nonceFor(u); got != "kept" {
			t.Errorf("%s: nonce = %q, want the old one kept", c.name, got)
		}
	}
	a.AcceptedReply(reply(true, "fresh"))
	if got := a.nonceFor(u); got != "fresh" {
		t.Errorf("nonce = %q after a valid one, want fresh", got)
	}
}
