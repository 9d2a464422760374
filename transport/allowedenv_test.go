package transport

import (
	"slices"
	"testing"
)

// AllowedEnv hands out a copy: a caller that writes to it cannot widen
// what every child inherits.
func TestAllowedEnvIsACopy(t *testing.T) {
	env := AllowedEnv()
	if !slices.Contains(env, "PATH") {
		t.Fatalf("AllowedEnv() = %q, want PATH in it", env)
	}
	env[slices.Index(env, "PATH")] = "AWS_SECRET_ACCESS_KEY"
	if envAllowed("AWS_SECRET_ACCESS_KEY") || !envAllowed("PATH") {
		t.Error("writing to AllowedEnv's result changed what children inherit")
	}
}
