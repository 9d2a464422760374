package cli

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// endpointToken is the bearer token hosts must send to --listen's
// endpoint: the one --auth-token-env names, none with --no-auth or
// --oauth-issuer (which authenticate otherwise or not at all, as asked),
// else a fresh random one. A local listener is safe by default: without a
// token, any process on the machine that can reach the port could run
// every configured server's tools. The fresh token is shown once, on
// stderr, to the person who started serve, as a notebook server shows
// its own; it is never logged anywhere else.
func (o *gatewayOptions) endpointToken(streams *IOStreams) (string, error) {
	switch {
	case o.AuthTokenEnv != "":
		// Without surrounding white space, which no host can send (HTTP
		// drops it from a header value) and a value read from a file
		// often ends in. check made sure something is left.
		return strings.TrimSpace(os.Getenv(o.AuthTokenEnv)), nil
	case o.NoAuth:
		fmt.Fprintln(streams.ErrOut, "mcpwire: serve: warning: --no-auth: any process that reaches the address can call every served tool")
		return "", nil
	case o.Ops.OAuthIssuer != "":
		return "", nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("serve: making the endpoint's token: %w", err)
	}
	token := hex.EncodeToString(b)
	fmt.Fprintf(streams.ErrOut, "mcpwire: serve: token: %s\n", token)
	fmt.Fprintln(streams.ErrOut, "mcpwire: serve: hosts send it as \"Authorization: Bearer TOKEN\" (--auth-token-env NAME sets your own; --no-auth serves without one)")
	return token, nil
}
