package config

import (
	"strings"
	"testing"
)

func TestExpandString(t *testing.T) {
	env := func(name string) (string, bool) {
		if name == "SECRET" {
			return "s3cr3t", true
		}
		return "", false
	}
	opts := LoadOptions{Env: env, HomeDir: "/home/u"}
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"${SECRET}", "s3cr3t"},
		{"${env:SECRET}-x", "s3cr3t-x"},
		{"${MISSING:-fallback}", "fallback"},
		{"${userHome}/k.pem", "/home/u/k.pem"},
		{"$${SECRET}", "${SECRET}"},
	} {
		got, err := ExpandString(tc.in, opts)
		if err != nil || got != tc.want {
			t.Errorf("ExpandString(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	_, err := ExpandString("${MISSING}", opts)
	if err == nil || !strings.Contains(err.Error(), `"MISSING"`) {
		t.Errorf("unset variable: err = %v, want it named", err)
	}
	if err != nil && strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error shows a value: %v", err)
	}
}
