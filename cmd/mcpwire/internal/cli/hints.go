package cli

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// connectHint is advice for a failed connect, or "": for an HTML page
// where MCP was expected, the paths servers usually use; for a stdio
// server that exited during the handshake under the allow-listed
// environment, the variables that were held back (names only) and
// --inherit-env. given are the names the server did get (--env or its
// config's env).
//
// fix says how to pass a variable: for a -- COMMAND target the flags, for
// a configured server its config.
func connectHint(err error, stderrTail, serverURL string, stdio, inherit bool, given []string, fix string) string {
	if _, page := shortenNotMCP(err).(*notMCPEndpoint); page || strings.Contains(err.Error(), `Content-Type "text/html"`) {
		return htmlHint(serverURL)
	}
	if !stdio || inherit {
		return ""
	}
	var exit *transport.ExitError
	exited := errors.As(err, &exit) || errors.Is(err, syscall.EPIPE)
	if exit != nil && stderrTail == "" {
		stderrTail = exit.StderrTail
	}
	held := heldBackEnv(os.Environ(), given)
	if len(held) == 0 {
		return ""
	}
	// The names the server's stderr mentions come first: they are the
	// likely reason it stopped.
	var named []string
	for _, n := range held {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(stderrTail) {
			named = append(named, n)
		}
	}
	if len(named) > 0 {
		return fmt.Sprintf("the server runs with a reduced environment, without %s from yours; %s", strings.Join(named, ", "), fix)
	}
	// A server that exits at once for another reason (a wrong argument, a
	// missing file) gets no word about the environment: only one whose
	// stderr speaks of a variable or a key it lacks.
	if !exited || !envComplaint.MatchString(stderrTail) {
		return ""
	}
	shown := held
	if len(shown) > 8 {
		shown = shown[:8]
	}
	more := ""
	if len(held) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(held)-len(shown))
	}
	return fmt.Sprintf("the server exited at once; it runs with a reduced environment, without %s%s from yours; if it needs one: %s", strings.Join(shown, ", "), more, fix)
}

// envComplaint matches what a server that lacks a variable says about
// it, without naming one mcpwire held back: "environment variable",
// "env var", "is not set", "API key", "token".
var envComplaint = regexp.MustCompile(`(?i)\benv(ironment)?\b|\benv[ _-]?var|\bvariables?\b|\b(is|are) not set\b|\bunset\b|\bapi[ _-]?key\b|\btoken\b|\bcredentials?\b`)

// heldBackEnv lists, sorted, the names of environ that a stdio server
// does not inherit by default and was not given.
func heldBackEnv(environ, given []string) []string {
	var out []string
	allowed := transport.AllowedEnv()
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "" || strings.HasPrefix(name, "LC_") || slices.Contains(allowed, name) || slices.Contains(given, name) {
			continue
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// htmlHint says that a URL answered with a web page and which endpoints
// to try.
func htmlHint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the URL answers with a web page, not MCP: is it the server's MCP endpoint?"
	}
	base := (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
	return fmt.Sprintf("the URL answers with a web page (a login page or a proxy's?), not MCP; servers usually listen at a path such as %s/mcp (Streamable HTTP) or %s/sse (legacy SSE)", base, base)
}

// pinnedProtocolHint is advice for a connect under --protocol VERSION that
// failed on the version (an *mcp.ProtocolVersionError: the server refused
// the pinned revision, or answered with one mcpwire does not speak). The
// default, auto, would have negotiated the era; a server that could not
// be reached gets no such hint.
func pinnedProtocolHint(err error, pinned string) string {
	var pv *mcp.ProtocolVersionError
	if pinned == "" || !errors.As(err, &pv) {
		return ""
	}
	return fmt.Sprintf("--protocol %s pins an era this server may not speak; without --protocol (or with --protocol auto) mcpwire finds the server's era itself", pinned)
}

// Ways to pass a held-back variable, for connectHint.
const (
	fixFlags  = "pass it with --env NAME=VALUE, or all of yours with --inherit-env"
	fixConfig = `add it to the server's "env" in its config ("NAME": "${NAME}"), or set "envPolicy": "inherit"`
)
