package manager

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

// DialWith is the Dial the manager uses when Options.Dial is nil:
// DefaultDial with dir and the writer stderr returns for each server (stderr
// may be nil). It is there for callers that wrap the default Dial.
func DialWith(dir string, stderr func(server string) io.Writer) func(ctx context.Context, s *config.Server) (transport.Transport, error) {
	return func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		var w io.Writer
		if stderr != nil {
			w = stderr(s.Name)
		}
		return DefaultDial(s, dir, w)
	}
}

// DefaultDial maps a server definition onto a transport: a child process
// for stdio (working directory: the config's cwd, else dir; stderr copied
// to stderr when not nil), Streamable HTTP for http, legacy HTTP+SSE for
// sse, and for auto (a URL without a type) Streamable HTTP falling back
// to legacy SSE (transport.Auto).
//
// It opens nothing: the manager connects the transport it returns.
func DefaultDial(s *config.Server, dir string, stderr io.Writer) (transport.Transport, error) {
	switch s.Type {
	case config.TypeStdio:
		cwd := s.Cwd
		if cwd == "" {
			cwd = dir
		}
		return &transport.Command{
			Command:    s.Command,
			Args:       s.Args,
			Env:        s.Env,
			InheritEnv: s.InheritEnv,
			Dir:        cwd,
			Stderr:     stderr,
		}, nil
	case config.TypeHTTP:
		return &transport.StreamableHTTP{URL: s.URL, Headers: httpHeaders(s.Headers)}, nil
	case config.TypeAuto:
		return &transport.Auto{URL: s.URL, Headers: httpHeaders(s.Headers)}, nil
	case config.TypeSSE:
		return &transport.SSE{URL: s.URL, Headers: httpHeaders(s.Headers)}, nil
	default:
		return nil, fmt.Errorf("unknown transport type %q", s.Type)
	}
}

func httpHeaders(m map[string]string) http.Header {
	if len(m) == 0 {
		return nil
	}
	h := make(http.Header, len(m))
	for k, v := range m {
		h.Set(k, v)
	}
	return h
}
