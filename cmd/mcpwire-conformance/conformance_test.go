package main

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// All 26 client scenarios of @modelcontextprotocol/conformance@0.1.16.
// Each must pass with no baseline of expected failures.
var scenarios = []string{
	// core
	"initialize",
	"tools_call",
	"elicitation-sep1034-client-defaults",
	"sse-retry",
	"auth/metadata-default",
	"auth/metadata-var1",
	"auth/metadata-var2",
	"auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate",
	"auth/scope-from-scopes-supported",
	"auth/scope-omitted-when-undefined",
	"auth/scope-step-up",
	"auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic",
	"auth/token-endpoint-auth-post",
	"auth/token-endpoint-auth-none",
	"auth/pre-registration",
	// backcompat
	"auth/2025-03-26-oauth-metadata-backcompat",
	"auth/2025-03-26-oauth-endpoint-fallback",
	// draft
	"auth/resource-mismatch",
	"auth/offline-access-scope",
	"auth/offline-access-not-supported",
	// extensions
	"auth/client-credentials-jwt",
	"auth/client-credentials-basic",
	"auth/cross-app-access-complete-flow",
}

// timingSensitive scenarios check how long the client waits, so they run
// alone, before the others run in parallel.
var timingSensitive = map[string]bool{"sse-retry": true}

// TestConformance builds this program and lets the official suite drive it
// through every scenario above, exactly as the suite's README runs a client.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance suite: skipped in -short mode")
	}
	node, suiteArgs := interop.Conformance(t)
	bin := buildClient(t)
	for _, sc := range scenarios {
		t.Run(sc, func(t *testing.T) {
			if !timingSensitive[sc] {
				t.Parallel()
			}
			runScenario(t, node, suiteArgs, bin, sc)
		})
	}
}
