package auth

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestBadTokenResponses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"no access_token", 200, `{"token_type":"Bearer"}`, "no access_token"},
		{"empty access_token", 200, `{"access_token":"","token_type":"Bearer"}`, "no access_token"},
		{"not Bearer", 200, `{"access_token":"x","token_type":"mac"}`, `token_type is "mac"`},
		{"not JSON", 200, `<html>hello</html>`, "not a valid token response"},
		{"OAuth error", 400, `{"error":"invalid_grant","error_description":"code expired"}`, "invalid_grant (code expired)"},
		{"HTML error", 502, `<html>bad gateway</html>`, "HTTP 502: the reply is not an OAuth error response"},
		{"access_token not a string", 200, `{"access_token":42}`, "not a valid token response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.tokenHook = func(url.Values, *http.Request) (int, string, bool) { return tc.status, tc.body, true }
			err := call(t, w, newAuth(t, w, nil), "ping")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

func TestDecodeTokenReply(t *testing.T) {
	for _, tc := range []struct {
		body    string
		expires int64
		scope   string
	}{
		{`{"access_token":"a","expires_in":3600}`, 3600, ""},
		{`{"access_token":"a","expires_in":"3600"}`, 3600, ""},
		{`{"access_token":"a","expires_in":-5}`, 0, ""},
		{`{"access_token":"a","expires_in":1e300}`, 0, ""},
		{`{"access_token":"a","expires_in":"soon"}`, 0, ""},
		{`{"access_token":"a","expires_in":null,"scope":"x y"}`, 0, "x y"},
	} {
		r, err := decodeTokenReply([]byte(tc.body))
		if err != nil || r.ExpiresIn != tc.expires || r.Scope != tc.scope {
			t.Errorf("decodeTokenReply(%s) = %+v, %v", tc.body, r, err)
		}
	}
	now := time.Unix(1000, 0)
	r, _ := decodeTokenReply([]byte(`{"access_token":"a","token_type":"bearer","expires_in":60}`))
	tok, err := r.accessToken(now, []string{"asked"}, "")
	if err != nil || !tok.Expiry.Equal(now.Add(time.Minute)) || fmt.Sprint(tok.Scopes) != "[asked]" {
		t.Errorf("accessToken = %v, %v; want the requested scopes when the reply names none", tok, err)
	}
}

func TestTokenNeverPrinted(t *testing.T) {
	tok := &Token{AccessToken: "AT-SECRET-1", RefreshToken: "RT-SECRET-2", Expiry: time.Unix(0, 0), Scopes: []string{"a"}}
	rec := Record{ServerURL: "https://h/mcp", ClientID: "c", Token: tok,
		Registration: &Registration{ClientID: "c", ClientSecret: "CS-SECRET-3"}}
	cfg := Config{ClientID: "c", ClientSecret: "CS-SECRET-4"}
	for _, s := range []string{
		fmt.Sprint(tok), fmt.Sprintf("%v %+v %#v %s", tok, tok, tok, tok),
		fmt.Sprintf("%v %+v %#v %s", rec, rec, rec, rec),
		fmt.Sprintf("%v %+v %#v", &rec, &rec, &rec),
		fmt.Sprintf("%v %+v %#v", *rec.Registration, rec.Registration, rec.Registration),
		fmt.Sprintf("%v %+v %#v", cfg, cfg, &cfg),
	} {
		if strings.Contains(s, "SECRET") {
			t.Errorf("a secret is printed: %s", s)
		}
	}
}
