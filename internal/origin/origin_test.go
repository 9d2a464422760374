package origin

import (
	"net/url"
	"testing"
)

func TestSame(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"https://h.example/a", "https://H.example:443/b?q", true},
		{"HTTP://h.example", "http://h.example:80/", true},
		{"http://[::1]:8080/x", "http://[::1]:8080/y", true},
		{"https://h.example", "http://h.example", false},
		{"https://h.example", "https://h.example:8443", false},
		{"https://h.example", "https://g.example", false},
		{"ws://h.example", "ws://h.example:80", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := Same(a, b); got != tc.same {
			t.Errorf("Same(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "api.localhost": true, "127.0.0.1": true,
		"127.8.9.10": true, "::1": true, "localhost.example.com": false, "10.0.0.1": false,
		"example.com": false, "": false, "::": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
