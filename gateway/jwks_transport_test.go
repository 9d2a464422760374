package gateway

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Keys that sign every access token are read over https only (http on
// loopback aside): a jwks_uri or a redirect that leads to plain http on
// another host is refused before anything is fetched, and the error says
// why without repeating a query.
func TestOAuthKeysNeverReadOverPlainHTTP(t *testing.T) {
	var fetchedElsewhere bool
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			_ = json.NewEncoder(w).Encode(map[string]string{"issuer": "https://" + r.Host, "jwks_uri": "http://keys.example.net/jwks?secret=s3"})
		case "/moved":
			http.Redirect(w, r, "http://keys.example.net/jwks?secret=s3", http.StatusFound)
		default:
			fetchedElsewhere = true
		}
	}))
	defer tls.Close()
	client := keyClient()
	client.Transport = tls.Client().Transport
	// Anything that reached keys.example.net would fail to resolve; the
	// refusal must come first, with its own reason.
	for _, c := range []struct{ name, issuer, jwks string }{
		{"a jwks_uri on plain http", tls.URL, ""},
		{"a redirect to plain http", tls.URL, tls.URL + "/moved"},
		{"a configured key set on plain http", tls.URL, "http://keys.example.net/jwks?secret=s3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &keySet{client: client, issuer: c.issuer, url: c.jwks, floor: time.Minute, now: time.Now}
			_, err := s.key(t.Context(), "k1")
			if err == nil || !strings.Contains(err.Error(), "http://keys.example.net/jwks is not an https URL") {
				t.Fatalf("err = %v, want the plain-http refusal", err)
			}
			if strings.Contains(err.Error(), "s3") {
				t.Errorf("the error repeats the URL's query: %v", err)
			}
		})
	}
	if fetchedElsewhere {
		t.Error("an unexpected path was fetched")
	}
	// Loopback over http stays allowed: the tests' issuers are there.
	is := newTestIssuer(t)
	s := &keySet{client: keyClient(), issuer: is.url, floor: time.Minute, now: time.Now}
	if _, err := s.key(t.Context(), "none"); err == nil || strings.Contains(err.Error(), "not an https URL") {
		t.Errorf("a loopback issuer over http: %v, want only the missing key", err)
	}
}
