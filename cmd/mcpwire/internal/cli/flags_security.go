package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/transport"
)

// allowInsecureHTTPFlag is the flag that relaxes the clear-text rule
// (docs/security.md): tokens, sign-in secrets and configured headers go to
// a plain-http server on another machine only with it.
const allowInsecureHTTPFlag = "allow-insecure-http"

// registerAllowInsecureHTTP adds --allow-insecure-http to fs.
func registerAllowInsecureHTTP(fs *flag.FlagSet, v *bool) {
	fs.BoolVar(v, allowInsecureHTTPFlag, false, "let tokens and headers go over plain http to a server on another machine, in clear text (only on a network you trust)")
}

// insecureHTTPHint is the hint for an error that refused clear text: the
// library's message names the config key, the CLI adds its flag.
func insecureHTTPHint(err error) string {
	if !errors.Is(err, auth.ErrInsecureHTTP) && !errors.Is(err, transport.ErrInsecureHTTP) {
		return ""
	}
	return fmt.Sprintf("plain http to another machine would show credentials to anyone on the network; use the server's https URL, or, only on a network you trust, pass --%s", allowInsecureHTTPFlag)
}

// printInsecureHTTPHint prints insecureHTTPHint's hint, if any.
func printInsecureHTTPHint(io *IOStreams, err error) {
	if h := insecureHTTPHint(err); h != "" {
		fmt.Fprintf(io.ErrOut, "mcpwire: hint: %s\n", h)
	}
}

// usageCause is a *UsageError that keeps the error it reports, so that
// Report can still give that error's hint.
type usageCause struct {
	usage *UsageError
	cause error
}

func (e *usageCause) Error() string   { return e.usage.Msg }
func (e *usageCause) Unwrap() []error { return []error{e.usage, e.cause} }

// usageFrom is Usagef("%s", msg) that keeps cause in the chain.
func usageFrom(msg string, cause error) error {
	return &usageCause{usage: &UsageError{Msg: msg}, cause: cause}
}

// dialConfigured is manager.DialWith with --allow-insecure-http passed on
// to transport.FromServer.
func dialConfigured(dir string, stderr func(server string) io.Writer, allowInsecure bool) func(ctx context.Context, s *config.Server) (transport.Transport, error) {
	if !allowInsecure {
		return manager.DialWith(dir, stderr)
	}
	return func(_ context.Context, s *config.Server) (transport.Transport, error) {
		var w io.Writer
		if stderr != nil {
			w = stderr(s.Name)
		}
		return transport.FromServer(s, transport.ServerOptions{Dir: dir, Stderr: w, AllowInsecureHTTP: true})
	}
}
