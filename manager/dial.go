package manager

import (
	"context"
	"io"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

// DialWith is the Dial the manager uses when Options.Dial is nil:
// transport.FromServer, the one mapping from a definition to a transport,
// with dir as the working directory of a stdio server whose config gives
// no cwd and the writer stderr returns for each server (stderr may be nil,
// and may return nil). It is exported for callers that wrap the default
// Dial. It opens nothing: the manager connects the transport it returns.
func DialWith(dir string, stderr func(server string) io.Writer) func(ctx context.Context, s *config.Server) (transport.Transport, error) {
	return func(_ context.Context, s *config.Server) (transport.Transport, error) {
		var w io.Writer
		if stderr != nil {
			w = stderr(s.Name)
		}
		return transport.FromServer(s, transport.ServerOptions{Dir: dir, Stderr: w})
	}
}
