package gateway

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// reached records that the check let a request through.
type reached struct{ n int }

func (r *reached) ServeHTTP(http.ResponseWriter, *http.Request) { r.n++ }

func checkStatus(h *hostCheck, host, origin string) int {
	req := httptest.NewRequest(http.MethodPost, "http://x/mcp", nil)
	req.Host = host
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func TestHostCheck(t *testing.T) {
	next := &reached{}
	h := &hostCheck{allowed: []string{"mcp.example"}, next: next}
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:8080", "", 200},
		{"[::1]:8080", "", 200},
		{"localhost", "http://localhost:3000", 200},
		{"MCP.example:443", "https://mcp.example", 200},
		{"evil.example", "", 403},
		{"", "", 403},
		{"127.0.0.1", "http://evil.example", 403},
		{"127.0.0.1", "::not a url", 403},
	} {
		before := next.n
		if got := checkStatus(h, tc.host, tc.origin); got != tc.want || (got == 200) != (next.n > before) {
			t.Errorf("Host %q Origin %q: %d, want %d", tc.host, tc.origin, got, tc.want)
		}
	}
}

// FuzzHostCheck: any Host and Origin get an answer, and a request passes
// only when its Host is loopback or allowed.
func FuzzHostCheck(f *testing.F) {
	f.Add("127.0.0.1:1", "http://localhost")
	f.Add("mcp.example", "https://evil")
	f.Add("[::1", "%zz")
	f.Fuzz(func(t *testing.T, host, origin string) {
		next := &reached{}
		h := &hostCheck{allowed: []string{"mcp.example"}, next: next}
		code := checkStatus(h, host, origin)
		if code == 200 && !h.hostAllowed(hostOnly(host)) {
			t.Fatalf("Host %q passed", host)
		}
	})
}

// An IPv6 address is allowed as given, bracketed or not, and matches the
// Host header in either form and in another spelling of it; before, a
// bracketed --allowed-host matched no Host at all.
func TestHostCheckIPv6(t *testing.T) {
	for _, allowed := range []string{"[fe80::1]", "fe80::1", "FE80:0::1"} {
		h := newHostCheck([]string{allowed}, &reached{})
		for _, tc := range []struct {
			host, origin string
			want         int
		}{
			{"[fe80::1]:1234", "", 200},
			{"[fe80::1]", "", 200},
			{"[fe80:0:0::1]:8080", "http://[fe80::1]:8080", 200},
			{"[fe80::2]:1234", "", 403},
			{"[fe80::1]:1234", "http://[fe80::2]", 403},
		} {
			if got := checkStatus(h, tc.host, tc.origin); got != tc.want {
				t.Errorf("allowed %q, Host %q Origin %q: %d, want %d", allowed, tc.host, tc.origin, got, tc.want)
			}
		}
	}
}
