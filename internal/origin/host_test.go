package origin

import "testing"

// One spelling for every way a host is written: case, brackets, zeros,
// zone and the IPv4-mapped form.
func TestCanonicalHost(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM":       "example.com",
		"[FE80:0::1]":       "fe80::1",
		"fe80::1%eth0":      "fe80::1",
		"::ffff:10.0.0.1":   "10.0.0.1",
		"[::ffff:10.0.0.1]": "10.0.0.1",
		"192.0.2.2":         "192.0.2.2",
	} {
		if got := CanonicalHost(in); got != want {
			t.Errorf("CanonicalHost(%q) = %q, want %q", in, got, want)
		}
	}
}
