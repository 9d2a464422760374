package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// headerSeen records the Authorization header a request reached it with.
type headerSeen struct {
	n    int
	auth string
}

func (h *headerSeen) ServeHTTP(_ http.ResponseWriter, r *http.Request) {
	h.n++
	h.auth = r.Header.Get("Authorization")
}

// With a static token, a request without it or with another gets 401 and
// the bearer challenge; the right one passes, and its Authorization
// header goes no further than the check.
func TestBearerTokenRequired(t *testing.T) {
	next := &headerSeen{}
	h := &hostCheck{next: &bearerCheck{token: []byte("s3cret-token"), next: next}}
	// RFC 6750 section 3.1: a request with no credentials, or with
	// another scheme, gets the challenge without an error code; a wrong
	// bearer token gets error="invalid_token".
	for _, tc := range []struct {
		auth    string
		want    int
		invalid bool
	}{
		{"", 401, false},
		{"Bearer wrong", 401, true},
		{"Basic s3cret-token", 401, false},
		{"Bearer s3cret-token-and-more", 401, true},
		{"Bearer", 401, true},
		{"Bearer s3cret-token", 200, false},
		{"bearer s3cret-token", 200, false},
	} {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		rec := httptest.NewRecorder()
		before := next.n
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want || (tc.want == 200) != (next.n > before) {
			t.Errorf("Authorization %q: %d, want %d", tc.auth, rec.Code, tc.want)
		}
		if tc.want == 401 {
			if c := rec.Header().Get("WWW-Authenticate"); !strings.HasPrefix(c, "Bearer ") {
				t.Errorf("Authorization %q: WWW-Authenticate %q, want a Bearer challenge", tc.auth, c)
			} else if got := strings.Contains(c, `error="invalid_token"`); got != tc.invalid {
				t.Errorf("Authorization %q: WWW-Authenticate %q; an error code: %v, want %v", tc.auth, c, got, tc.invalid)
			}
			if strings.Contains(rec.Body.String(), "s3cret") {
				t.Errorf("the refusal shows the token: %q", rec.Body.String())
			}
		}
		if tc.want == 200 && next.auth != "" {
			t.Errorf("the host's Authorization went on: %q", next.auth)
		}
	}
	// A foreign Host is refused before the token is looked at.
	req := httptest.NewRequest(http.MethodPost, "http://evil.example/mcp", nil)
	req.Header.Set("Authorization", "Bearer s3cret-token")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 403 {
		t.Errorf("foreign Host with the token: %d, want 403", rec.Code)
	}
}
