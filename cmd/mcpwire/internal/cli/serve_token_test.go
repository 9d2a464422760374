package cli

import (
	"strings"
	"testing"
)

// A token read from a file into the environment often ends in a newline
// (a Kubernetes secret made --from-file, a here-document). No host can
// send one: HTTP drops a header value's surrounding white space. Before,
// such a token made every request 401 with nothing to say why; it is now
// taken without its surrounding white space.
func TestServeHTTPTokenWithoutSurroundingSpace(t *testing.T) {
	cfg := gatewayConfig(t)
	t.Setenv("MCPWIRE_TEST_SERVE_TOKEN", " serve-s3cret\n")
	url := listenGateway(t, "--config", cfg, "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN")
	listsToolsWithToken(t, url, "serve-s3cret")
}

// A token of white space only is no token: a usage error, as unset is.
func TestServeHTTPBlankTokenIsUsageError(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_SERVE_TOKEN", " \n")
	// An address that cannot be bound: were the token taken, serve would
	// fail there instead, later and for another reason.
	r := run(t, "serve", "--listen", "127.0.0.1:99999", "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN", "--config", gatewayConfig(t)).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "--auth-token-env") {
		t.Errorf("stderr %q does not name --auth-token-env", r.err)
	}
}
