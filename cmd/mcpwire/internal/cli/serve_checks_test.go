package cli

import (
	"os"
	"strings"
	"testing"
)

// --prefix and --separator are refused when a tool name could not hold
// them (the 2025-11-25 rule: letters, digits, "_", "-", "."), naming the
// flag and the character; --allowed-host refuses a wildcard and takes a
// bracketed IPv6 address; flags only --listen takes are named one by one
// when --stdio is given.
func TestServeChecksNamesHostsAndListenFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for valid
	}{
		{[]string{"--stdio", "--separator", "/ "}, `--separator: the character "/" (U+002F) cannot be in a tool name`},
		{[]string{"--stdio", "--separator", "-"}, ""},
		{[]string{"--stdio", "--prefix", "a=my pfx"}, `--prefix a=...: the character " " (U+0020) cannot be in a tool name`},
		{[]string{"--stdio", "--prefix", "a=p\x1b"}, `--prefix a=...: the character "\x1b" (U+001B)`},
		{[]string{"--stdio", "--prefix", "a=" + strings.Repeat("p", 130)}, "--prefix a=...: 130 characters leave no room"},
		{[]string{"--stdio", "--prefix", "a=my.pfx-1_"}, ""},
		{[]string{"--listen", ":0", "--allowed-host", "*"}, "wildcards are not supported"},
		{[]string{"--listen", ":0", "--allowed-host", "*.example.com"}, "DNS rebinding"},
		{[]string{"--listen", ":0", "--allowed-host", "[fe80::1]"}, ""},
		{[]string{"--listen", ":0", "--allowed-host", "fe80::1"}, ""},
		{[]string{"--listen", ":0", "--allowed-host", "[fe80::1]:80"}, "has a port"},
		{[]string{"--stdio", "--session-key-file", "k"}, "--session-key-file is for --listen"},
		{[]string{"--stdio", "--legacy-sse", "--max-sessions", "3"}, "--legacy-sse and --max-sessions are for --listen"},
	} {
		_, err := checkServeFlags(t, tc.args, tc.want)
		if err != nil && strings.Contains(err.Error(), "--allowed-host, --legacy-sse") {
			t.Errorf("%q names flags that were not given: %v", tc.args, err)
		}
	}
}

// A --prefix for a server that is not configured is refused before any
// server starts (it was ignored), with the names that are; a TARGET
// takes none.
func TestServePrefixNamesAServer(t *testing.T) {
	cfg := gatewayConfig(t)
	r := run(t, "serve", "--stdio", "--config", cfg, "--prefix", "alpah=a").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `--prefix alpah=...: no configured server is named "alpah"`) || !strings.Contains(r.err, "alpha") {
		t.Errorf("stderr %q", r.err)
	}
	r = run(t, "serve", "--stdio", "--prefix", "upstream=u", "--", os.Args[0], ServeName).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "--prefix is for configured servers") {
		t.Errorf("TARGET with --prefix: stderr %q", r.err)
	}
}
