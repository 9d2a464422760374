package transport

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// AllowedEnv returns the variables a stdio server inherits from this
// process by default, besides every LC_* variable: enough to find
// programs, a home directory, a locale and a proxy, and nothing that tends
// to hold secrets. The slice is a copy; changing it changes nothing.
func AllowedEnv() []string { return slices.Clone(allowedEnv) }

var allowedEnv = []string{
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
	"http_proxy", "https_proxy", "no_proxy", "all_proxy",
}

// environ is os.Environ, a variable for tests.
var environ = os.Environ

func envAllowed(name string) bool {
	return strings.HasPrefix(name, "LC_") || slices.Contains(allowedEnv, name)
}

// childEnv builds a child's environment from the parent's (as "K=V"
// entries): the allowed variables, or all of them when inherit is set,
// then extra on top. The result is sorted, one entry per name. Errors name
// the offending variable, never its value.
func childEnv(parent []string, inherit bool, extra map[string]string) ([]string, error) {
	vars := make(map[string]string, len(extra)+len(allowedEnv))
	for _, kv := range parent {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if inherit || envAllowed(name) {
			vars[name] = value
		}
	}
	for name, value := range extra {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			return nil, fmt.Errorf("transport: invalid environment variable name %q", name)
		}
		if strings.ContainsRune(value, 0) {
			return nil, fmt.Errorf("transport: the value of environment variable %s contains a NUL byte", name)
		}
		vars[name] = value
	}
	env := make([]string, 0, len(vars))
	for name, value := range vars {
		env = append(env, name+"="+value)
	}
	slices.Sort(env)
	return env, nil
}

// envValue returns the value of name in env ("K=V" entries), or "".
func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}
