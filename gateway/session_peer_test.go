package gateway

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
)

// postAs POSTs body to url as the bearer of token, in session sid ("" for
// none), and returns the status, the session id answered and the body.
func postAs(t *testing.T, url, token, sid, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
}

// A session belongs to whoever started it. Before, another user with a
// valid token of their own who had the session's id could use it (post
// into it, answer what the server asked its host, end it), and the audit
// log named the session's owner for their calls; and a sealed session
// reopened on another replica lost its owner, so the audit log named its
// calls "stdio".
func TestSessionBelongsToWhoStartedIt(t *testing.T) {
	is := newTestIssuer(t)
	key := newECKey(t, "k")
	is.publish(key)
	const aud = "mcpwire"
	lines := make(lineWriter, 4)
	g := newGateway(t, map[string]*server.Server{"up": opsUpstream(make(chan struct{}))}, &Options{Audit: &AuditOptions{Out: lines}})
	opts := &HTTPOptions{OAuth: &OAuthOptions{Issuer: is.url, Audience: aud}, SessionKeys: [][]byte{make([]byte, server.SessionKeySize)}}
	a := httptest.NewServer(g.Handler(opts))
	t.Cleanup(a.Close)
	b := httptest.NewServer(g.Handler(opts)) // another replica, same key
	t.Cleanup(b.Close)
	token := func(sub string) string {
		c := is.claims(aud, time.Now())
		c["sub"] = sub
		return key.sign(t, c)
	}
	alice, bob := token("alice"), token("bob")

	status, sid, _ := postAs(t, a.URL+"/mcp", alice, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q", status, sid)
	}
	postAs(t, a.URL+"/mcp", alice, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"up__ok"}}`

	// Alice's own calls, on the replica that holds her session and on
	// one that reopens it, are hers.
	for _, url := range []string{a.URL, b.URL} {
		if status, _, body := postAs(t, url+"/mcp", alice, sid, call); status != http.StatusOK {
			t.Fatalf("alice's call at %s: %d %s", url, status, body)
		}
		var l struct{ Who string }
		if err := json.Unmarshal([]byte(<-lines), &l); err != nil || l.Who != "alice" {
			t.Errorf("alice's call at %s logged as %q (%v)", url, l.Who, err)
		}
	}
	// Bob, with a valid token of his own, does not get into her session
	// on either replica, nor end it.
	for _, url := range []string{a.URL, b.URL} {
		if status, _, _ := postAs(t, url+"/mcp", bob, sid, call); status != http.StatusNotFound {
			t.Errorf("bob's call in alice's session at %s: %d, want 404", url, status)
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodDelete, url+"/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+bob)
		req.Header.Set("Mcp-Session-Id", sid)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("bob's DELETE of alice's session at %s: %v %v, want 404", url, resp.Status, err)
		} else {
			resp.Body.Close()
		}
	}
	if status, _, _ := postAs(t, a.URL+"/mcp", alice, sid, call); status != http.StatusOK {
		t.Errorf("alice's call after bob's tries: %d", status)
	}
}

// The legacy transport's sessions belong to whoever opened the stream, too.
func TestLegacySessionBelongsToWhoOpenedIt(t *testing.T) {
	is := newTestIssuer(t)
	key := newECKey(t, "k")
	is.publish(key)
	const aud = "mcpwire"
	g := newGateway(t, map[string]*server.Server{"up": opsUpstream(make(chan struct{}))}, nil)
	web := httptest.NewServer(g.Handler(&HTTPOptions{OAuth: &OAuthOptions{Issuer: is.url, Audience: aud}, LegacySSE: true}))
	t.Cleanup(web.Close)
	token := func(sub string) string {
		c := is.claims(aud, time.Now())
		c["sub"] = sub
		return key.sign(t, c)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, web.URL+"/sse", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token("alice"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	endpoint := ""
	for line := range lineReader(resp.Body) {
		if e, ok := strings.CutPrefix(line, "data: "); ok {
			endpoint = e
			break
		}
	}
	if endpoint == "" {
		t.Fatal("no endpoint event")
	}
	msg := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	for who, want := range map[string]int{"bob": http.StatusNotFound, "alice": http.StatusAccepted} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, web.URL+endpoint, strings.NewReader(msg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token(who))
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != want {
			t.Errorf("%s's POST into alice's legacy session: %d, want %d", who, r.StatusCode, want)
		}
	}
}

// lineReader yields r's lines until it ends.
func lineReader(r io.Reader) func(func(string) bool) {
	return func(yield func(string) bool) {
		s := bufio.NewScanner(r)
		for s.Scan() && yield(s.Text()) {
		}
	}
}
