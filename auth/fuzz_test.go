package auth

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
)

func FuzzParseChallenges(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", scope="a b"`,
		`Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://localhost:1/x", error_description="Scope upgrade will never succeed"`,
		`Bearer error="invalid_token", error_description="Missing Authorization header"`,
		`Basic realm="a, b", Bearer scope="x"`,
		`Negotiate abc123==, Bearer`,
		`Bearer scope="unterminated \"`,
		`,,, = =, "x"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs := ParseChallenges([]string{s})
		for _, c := range cs {
			if c.Scheme == "" {
				t.Fatalf("a challenge without a scheme from %q", s)
			}
			for k := range c.Params {
				if k != strings.ToLower(k) || k == "" {
					t.Fatalf("parameter name %q from %q", k, s)
				}
			}
		}
		// Joining values parses as the values did one by one.
		if len(ParseChallenges([]string{s, s})) != 2*len(cs) {
			t.Fatalf("two copies of %q parse to a different count", s)
		}
	})
}

func FuzzDecodeTokenReply(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"test-token-1","token_type":"Bearer","expires_in":3600,"scope":"mcp:basic"}`,
		`{"access_token":"a","expires_in":"3600","refresh_token":"r"}`,
		`{"access_token":"jag","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}`,
		`{"error":"invalid_grant"}`,
		`[]`, `null`, `{"access_token":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := decodeTokenReply(body)
		if err != nil {
			return
		}
		if r.AccessToken == "" || r.ExpiresIn < 0 {
			t.Fatalf("accepted %q as %+v", body, r)
		}
		tok, err := r.accessToken(time.Unix(0, 0), nil, "")
		if err == nil && !tok.Valid(time.Unix(0, 0)) && r.ExpiresIn > 30 {
			t.Fatalf("a fresh token from %q is not valid", body)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		`{"clientId": "abc", "clientSecret": "${OAUTH_SECRET}", "scopes": ["a", "b"], "callbackPort": 8976}`,
		`{"scopes": "a b", "clientMetadataUrl": "https://x/y"}`,
		`null`, `{}`, `{"callbackPort": 1e9}`,
	} {
		f.Add([]byte(s))
	}
	opts := config.LoadOptions{Env: func(string) (string, bool) { return "FUZZ-SECRET-VALUE", true }}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := ParseConfig(json.RawMessage(raw), opts)
		if err != nil {
			if strings.Contains(err.Error(), "FUZZ-SECRET-VALUE") {
				t.Fatalf("error shows a value: %v", err)
			}
			return
		}
		if c.CallbackPort < 0 || c.CallbackPort > 65535 || (c.ClientSecret != "" && c.ClientID == "") {
			t.Fatalf("accepted %q as %#v", raw, c)
		}
	})
}

func FuzzResourceMetadataCheck(f *testing.F) {
	f.Add([]byte(`{"resource":"http://127.0.0.1:1/mcp","authorization_servers":["http://127.0.0.1:2"]}`))
	f.Add([]byte(`{"resource":"https://evil.example.com/mcp","authorization_servers":["x"]}`))
	f.Add([]byte(`{"resource":"http://127.0.0.1:1","authorization_servers":[]}`))
	a, err := New("http://127.0.0.1:1/mcp", nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var m protectedResourceMetadata
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		if a.checkResource(&m, "http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp") == nil {
			if len(m.AuthorizationServers) == 0 {
				t.Fatalf("accepted metadata without authorization servers: %q", raw)
			}
			if m.Resource == "" || !strings.HasPrefix(strings.ToLower(m.Resource), "http://127.0.0.1:1") {
				t.Fatalf("accepted a resource of another origin: %q", m.Resource)
			}
		}
	})
}

// FuzzDPoPNonceChallenge feeds a resource server's 401 headers (its
// WWW-Authenticate and DPoP-Nonce) to what reads them: a nonce comes out
// only when it is valid, it round-trips into a proof, and nothing panics.
func FuzzDPoPNonceChallenge(f *testing.F) {
	for _, s := range [][2]string{
		{`DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof"`, "eyJ7S_zG.eyJH0-Z.HX4w-7v"},
		{`DPoP algs="ES256 PS256", error="use_dpop_nonce"`, "n"},
		{`Bearer, DPoP error="use_dpop_nonce"`, `quote"inside`},
		{`DPoP error="invalid_token"`, "abc"},
		{`DPoP error=use_dpop_nonce`, strings.Repeat("x", 600)},
		{`dpop ERROR="use_dpop_nonce"`, "\x00\x7f"},
	} {
		f.Add(s[0], s[1])
	}
	key, err := newDPoPKey()
	if err != nil {
		f.Fatal(err)
	}
	u, _ := url.Parse("https://mcp.example.com/mcp")
	f.Fuzz(func(t *testing.T, challenge, nonce string) {
		h := http.Header{"Www-Authenticate": {challenge}, "Dpop-Nonce": {nonce}}
		got, ok := nonceChallenge(h)
		if !ok {
			return
		}
		if got != nonce || !validNonce(got) {
			t.Fatalf("nonce %q accepted from %q", got, nonce)
		}
		p, err := key.proof("POST", u, got, "", time.Now())
		if err != nil || proofNonce(p) != got {
			t.Fatalf("nonce %q does not round-trip through a proof: %v", got, err)
		}
	})
}
