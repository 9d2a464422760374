package cli

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// minTokenLen is the shortest --auth-token-env token taken without a
// warning: 32 characters, as many as the hex of the 128 bits a token
// needs to stand up to guessing over the network (the random one serve
// makes is 64).
const minTokenLen = 32

// endpointToken is the bearer token hosts must send to --listen's
// endpoint: the one --auth-token-env names, none with --no-auth or
// --oauth-issuer (which authenticate otherwise or not at all, as asked),
// else a fresh random one. A local listener is safe by default: without a
// token, any process on the machine that can reach the port could run
// every configured server's tools. The fresh token is shown once, on
// stderr, to the person who started serve, as a notebook server shows
// its own; it is never logged anywhere else.
func (o *gatewayOptions) endpointToken(streams *IOStreams, where listenAddr) (string, error) {
	switch {
	case o.AuthTokenEnv != "":
		// Without surrounding white space, which no host can send (HTTP
		// drops it from a header value) and a value read from a file
		// often ends in. check made sure something is left.
		token := strings.TrimSpace(os.Getenv(o.AuthTokenEnv))
		if len(token) < minTokenLen {
			// Never the token, nor its length: only that it is short.
			fmt.Fprintf(streams.ErrOut, "mcpwire: serve: warning: the token in %s is shorter than %d characters, short enough to be guessed; use a random one (e.g. openssl rand -hex 32)\n", o.AuthTokenEnv, minTokenLen)
		}
		return token, nil
	case o.NoAuth:
		if where.loopback {
			fmt.Fprintln(streams.ErrOut, "mcpwire: serve: warning: --no-auth: any process on this machine that reaches the port can call every served tool")
		} else {
			fmt.Fprintf(streams.ErrOut, "mcpwire: serve: warning: --no-auth on %s, which is not loopback: anyone who can reach port %s over the network can call every served tool, with no token\n", where.addr, where.port)
		}
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
