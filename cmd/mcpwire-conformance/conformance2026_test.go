package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// The client scenarios that @modelcontextprotocol/conformance@0.2.0-alpha.12
// runs for `client --requirements 2026-07-28`, in its order: the 32 it
// scores, then those it runs without scoring (the extensions and a
// scenario added after the revision's release), which must pass too.
// Each must pass with no baseline of expected failures.
var scenarios2026 = []string{
	// scored
	"tools_call",
	"request-metadata",
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
	"auth/resource-mismatch",
	"auth/offline-access-scope",
	"auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported",
	"auth/iss-not-advertised",
	"auth/iss-supported-missing",
	"auth/iss-wrong-issuer",
	"auth/iss-unexpected",
	"auth/iss-normalized",
	"auth/metadata-issuer-mismatch",
	"sep-2322-client-request-state",
	"http-standard-headers",
	"http-custom-headers",
	"http-invalid-tool-headers",
	"json-schema-ref-no-deref",
	// not scored: extensions
	"auth/client-credentials-jwt",
	"auth/client-credentials-basic",
	"auth/enterprise-managed-authorization",
	"auth/dpop",
	"auth/dpop-nonce",
	"auth/wif-jwt-bearer",
	// not scored: added after the revision's release
	"json-schema-2020-12-preservation",
}

// timingSensitive2026 lists the scenarios above that check how long the
// client waits; they run alone, before the others run in parallel. None
// of 0.2.0-alpha.12's does (sse-retry is not part of the revision).
var timingSensitive2026 = map[string]bool{}

// TestConformance2026 lets the suite at 0.2.0-alpha.12 drive this program
// through the scenarios above one by one, each as --requirements 2026-07-28
// runs it: on the 2026-07-28 wire (--spec-version) and also when the
// scenario is an extension outside the spec's timeline (--force).
func TestConformance2026(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance suite: skipped in -short mode")
	}
	node, suiteArgs := interop.ConformanceNext(t)
	bin := buildClient(t)
	for _, sc := range scenarios2026 {
		t.Run(sc, func(t *testing.T) {
			if !timingSensitive2026[sc] {
				t.Parallel()
			}
			runScenario(t, node, suiteArgs, bin, sc, "--spec-version", "2026-07-28", "--force")
		})
	}
}

// TestScenarios2026AreTheRequirements keeps the list above equal to the
// suite's own requirement set for 2026-07-28 (its client scenarios and the
// client ones it runs unscored), so a new version of the suite that changes
// the set fails here instead of passing on a stale list.
func TestScenarios2026AreTheRequirements(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance suite: skipped in -short mode")
	}
	_, suiteArgs := interop.ConformanceNext(t)
	entry := suiteArgs[len(suiteArgs)-1] // <package>/dist/index.js
	path := filepath.Join(filepath.Dir(filepath.Dir(entry)), "requirements", "2026-07-28.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := requiredClientScenarios(t, string(b))
	if !slices.Equal(scenarios2026, want) {
		t.Errorf("scenarios2026 differs from %s:\n have %q\n want %q", path, scenarios2026, want)
	}
}

// requiredClientScenarios reads the client scenarios of a requirement set:
// the items of its top-level client list, then the not_scored entries whose
// leg is client. The file is a plain YAML subset (lists of strings and of
// flat maps), which a line reader handles without a YAML dependency.
func requiredClientScenarios(t *testing.T, yaml string) []string {
	t.Helper()
	var out []string
	section, pending := "", ""
	for _, line := range strings.Split(yaml, "\n") {
		if line != "" && line[0] != ' ' && line[0] != '#' {
			section, pending = strings.TrimSuffix(strings.TrimSpace(line), ":"), ""
			continue
		}
		item := strings.TrimSpace(line)
		switch {
		case section == "client" && strings.HasPrefix(item, "- "):
			out = append(out, strings.TrimSpace(item[2:]))
		case section == "not_scored" && strings.HasPrefix(item, "- scenario:"):
			pending = strings.TrimSpace(strings.TrimPrefix(item, "- scenario:"))
		case section == "not_scored" && item == "leg: client" && pending != "":
			out = append(out, pending)
			pending = ""
		}
	}
	if len(out) == 0 {
		t.Fatal("requirement set: found no client scenarios (has its format changed?)")
	}
	return out
}
