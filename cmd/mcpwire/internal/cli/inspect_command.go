package cli

import (
	"slices"
	"strings"
)

// copiedFlags are the flags of the target in the page's "Copy as mcpwire
// command", so that the copied command reaches the server as inspect
// did. No value that may be a secret is in them: an --env flag carries
// the variable's name alone (the page writes --env "NAME=$NAME", which
// the shell that runs it fills in; see inspect.ServerState.Target), and a
// header's value is *** to fill in. --bearer-token-env names a variable,
// no secret, and stays as it was.
func copiedFlags(f *ServerFlags, stdio bool) []string {
	var out []string
	if stdio {
		var names []string
		for _, kv := range f.Env {
			if k, _, ok := strings.Cut(kv, "="); ok && !slices.Contains(names, k) {
				names = append(names, k)
				out = append(out, "--env", k)
			}
		}
		if f.InheritEnv {
			out = append(out, "--inherit-env")
		}
	} else {
		if f.Transport != "" && f.Transport != "auto" {
			out = append(out, "--transport", f.Transport)
		}
		for _, h := range f.Headers {
			if name, _, ok := strings.Cut(h, ":"); ok {
				out = append(out, "--header", strings.TrimSpace(name)+": ***")
			}
		}
		if f.BearerTokenEnv != "" {
			out = append(out, "--bearer-token-env", f.BearerTokenEnv)
		}
		if f.AllowInsecureHTTP {
			out = append(out, "--allow-insecure-http")
		}
	}
	if f.Protocol != "" && f.Protocol != "auto" {
		out = append(out, "--protocol", f.Protocol)
	}
	return out
}
