package transport

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/mcpwire/mcpwire/config"
)

// ServerOptions are what a config.Server leaves to the program that runs
// it.
type ServerOptions struct {
	// Dir is a stdio server's working directory when its config gives no
	// cwd (normally the project directory); empty means this process's.
	Dir string
	// Stderr receives a copy of a stdio server's stderr; nil for nowhere
	// (the transport keeps a tail for error messages either way).
	Stderr io.Writer
	// AllowInsecureHTTP lets configured headers go to a plain-http URL
	// on another machine, where they would travel in clear text (see
	// ErrInsecureHTTP). For a lab network only.
	AllowInsecureHTTP bool
}

// FromServer is the one mapping from a server definition to a transport;
// the manager's default Dial and the mcpwire command (which turns a URL or
// "-- CMD" given on its command line into a config.Server) both use it.
// It lives here, not in config, because it builds transport values and
// checks fields by transport's rules, while config stays a description
// that imports nothing of the project; transport may import config, never
// the other way round.
//
// s.Type is read with config.ParseType, so every spelling a host's config
// uses is accepted; empty means stdio with a command and auto with a URL.
//   - stdio: a *Command (Command, Args, Env, InheritEnv, Cwd else o.Dir,
//     o.Stderr); the command is required;
//   - http: a *StreamableHTTP; sse: an *SSE; auto: an *Auto (Streamable
//     HTTP falling back to legacy SSE); the URL is required.
//
// A command together with a URL is refused, as are fields that belong to
// the other kind, and configured headers or a user name and password in
// the URL for a plain-http URL outside loopback (ErrInsecureHTTP). Errors name fields, never header or env values. It
// opens nothing; the caller connects the transport.
func FromServer(s *config.Server, o ServerOptions) (Transport, error) {
	typ := ""
	if s.Type != "" {
		var err error
		if typ, err = config.ParseType(s.Type); err != nil {
			return nil, fmt.Errorf("transport: server %s: %w", quoteServer(s.Name), err)
		}
	}
	if typ == "" {
		switch {
		case s.Command != "" && s.URL != "":
			return nil, fmt.Errorf("transport: server %s: both command and url are set; set type to \"stdio\", \"http\" or \"sse\" to say which to use", quoteServer(s.Name))
		case s.Command != "":
			typ = config.TypeStdio
		case s.URL != "":
			typ = config.TypeAuto
		default:
			return nil, fmt.Errorf("transport: server %s: neither command (for stdio) nor url (for HTTP) is set", quoteServer(s.Name))
		}
	}
	if typ == config.TypeStdio {
		return stdioFromServer(s, o)
	}
	return httpFromServer(s, typ, o)
}

func quoteServer(name string) string {
	return fmt.Sprintf("%q", clipRunes(name, 60))
}

func stdioFromServer(s *config.Server, o ServerOptions) (Transport, error) {
	switch {
	case s.Command == "":
		return nil, fmt.Errorf("transport: server %s: type \"stdio\" needs a command", quoteServer(s.Name))
	case s.URL != "":
		return nil, fmt.Errorf("transport: server %s: type \"stdio\" does not take a url", quoteServer(s.Name))
	case len(s.Headers) > 0:
		return nil, fmt.Errorf("transport: server %s: type \"stdio\" does not take headers (use env for credentials)", quoteServer(s.Name))
	}
	dir := s.Cwd
	if dir == "" {
		dir = o.Dir
	}
	cmd := &Command{
		Command:    s.Command,
		Args:       append([]string(nil), s.Args...),
		InheritEnv: s.InheritEnv,
		Dir:        dir,
		Stderr:     o.Stderr,
	}
	if s.MaxMessageSize > 0 { // stdio has no limit by default, and -1 keeps none
		cmd.MaxMessageSize = int(min(s.MaxMessageSize, int64(math.MaxInt)))
	}
	if len(s.Env) > 0 {
		cmd.Env = make(map[string]string, len(s.Env))
		for k, v := range s.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return nil, fmt.Errorf("transport: server %s: env name %q is not a valid variable name", quoteServer(s.Name), clipRunes(k, 60))
			}
			if strings.ContainsRune(v, 0) {
				return nil, fmt.Errorf("transport: server %s: env %q has a value containing NUL", quoteServer(s.Name), k)
			}
			cmd.Env[k] = v
		}
	}
	return cmd, nil
}

func httpFromServer(s *config.Server, typ string, o ServerOptions) (Transport, error) {
	kind := map[string]string{config.TypeHTTP: "Streamable HTTP", config.TypeSSE: "legacy SSE", config.TypeAuto: "HTTP"}[typ]
	switch {
	case s.URL == "":
		return nil, fmt.Errorf("transport: server %s: type %q (%s) needs a url", quoteServer(s.Name), typ, kind)
	case s.Command != "" || len(s.Args) > 0 || s.Cwd != "":
		return nil, fmt.Errorf("transport: server %s: %s takes a url, not command, args or cwd", quoteServer(s.Name), kind)
	case len(s.Env) > 0 || s.InheritEnv:
		return nil, fmt.Errorf("transport: server %s: %s does not take env (use headers for credentials)", quoteServer(s.Name), kind)
	}
	u, err := parseHTTPURL(kind, s.URL)
	if err != nil {
		return nil, err
	}
	var h http.Header
	if len(s.Headers) > 0 {
		h = make(http.Header, len(s.Headers))
		for k, v := range s.Headers {
			h.Set(k, v)
		}
		if err := checkHeaderValues(h, u); err != nil {
			return nil, err
		}
	}
	if err := checkCleartextHeaders(s, u, o); err != nil {
		return nil, err
	}
	body, event := httpLimits(s.MaxMessageSize)
	switch typ {
	case config.TypeHTTP:
		return &StreamableHTTP{URL: s.URL, Headers: h, MaxBodySize: body, MaxEventSize: event}, nil
	case config.TypeSSE:
		return &SSE{URL: s.URL, Headers: h, MaxEventSize: event}, nil
	default:
		return &Auto{URL: s.URL, Headers: h, MaxBodySize: body, MaxEventSize: event}, nil
	}
}

// httpLimits maps a server's maxMessageSize onto the HTTP transports'
// limits, which read 0 as their default and a negative value as none.
func httpLimits(n int64) (body int64, event int) {
	if n > int64(math.MaxInt) {
		n = -1
	}
	return n, int(n)
}
