package transport

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Config describes how to reach one server, as written in a configuration
// file: a command for stdio, or a URL for HTTP.
type Config struct {
	// Type selects the transport: "" or "stdio"; "http",
	// "streamable-http", "streamableHttp" or "streamable_http" for
	// Streamable HTTP; "sse" for the legacy HTTP+SSE transport. Case is
	// ignored. Empty with a URL (and no Command) means Auto: Streamable
	// HTTP with a fallback to legacy SSE.
	Type string
	// Command, Args, Env and Dir configure a stdio server (see Command).
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// URL is the endpoint of an HTTP server.
	URL string
	// Headers are sent on every HTTP request, typically Authorization.
	Headers map[string]string
}

// FromConfig returns the transport c describes. It validates what can be
// checked without I/O and says what is wrong, naming fields but never
// header or env values:
//   - type "" or "stdio": a *Command; the command is required;
//   - "http" and its spellings: a *StreamableHTTP; the URL is required;
//   - "sse": an *SSE; the URL is required;
//   - no type, no command and a URL: an *Auto;
//   - a command together with a URL is ambiguous and refused, as is an
//     unknown type.
func FromConfig(c Config) (Transport, error) {
	kind, err := parseKind(c.Type)
	if err != nil {
		return nil, err
	}
	if kind == kindUnset {
		switch {
		case c.Command != "" && c.URL != "":
			return nil, errors.New("transport config: both command and url are set; set type to \"stdio\", \"http\" or \"sse\" to say which to use")
		case c.Command != "":
			kind = kindStdio
		case c.URL != "":
			kind = kindAuto
		default:
			return nil, errors.New("transport config: neither command (for stdio) nor url (for HTTP) is set")
		}
	}
	if kind == kindStdio {
		return stdioFromConfig(c)
	}
	return httpFromConfig(c, kind)
}

type configKind int

const (
	kindUnset configKind = iota
	kindStdio
	kindStreamable
	kindLegacy
	kindAuto
)

func (k configKind) String() string {
	switch k {
	case kindStdio:
		return "stdio"
	case kindStreamable:
		return "streamable HTTP"
	case kindLegacy:
		return "legacy SSE"
	default:
		return "HTTP"
	}
}

func parseKind(t string) (configKind, error) {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "":
		return kindUnset, nil
	case "stdio":
		return kindStdio, nil
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return kindStreamable, nil
	case "sse":
		return kindLegacy, nil
	}
	return kindUnset, fmt.Errorf("transport config: unknown type %q; use \"stdio\", \"http\" (Streamable HTTP) or \"sse\" (legacy HTTP+SSE)", clipRunes(t, 60))
}

func stdioFromConfig(c Config) (Transport, error) {
	switch {
	case c.Command == "":
		return nil, errors.New("transport config: type \"stdio\" needs a command")
	case c.URL != "":
		return nil, errors.New("transport config: type \"stdio\" does not take a url")
	case len(c.Headers) > 0:
		return nil, errors.New("transport config: type \"stdio\" does not take headers (use env for credentials)")
	}
	cmd := &Command{
		Command: c.Command,
		Args:    append([]string(nil), c.Args...),
		Dir:     c.Dir,
	}
	if len(c.Env) > 0 {
		cmd.Env = make(map[string]string, len(c.Env))
		for k, v := range c.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return nil, fmt.Errorf("transport config: env name %q is not a valid variable name", k)
			}
			if strings.ContainsRune(v, 0) {
				return nil, fmt.Errorf("transport config: env %q has a value containing NUL", k)
			}
			cmd.Env[k] = v
		}
	}
	return cmd, nil
}

func httpFromConfig(c Config, kind configKind) (Transport, error) {
	switch {
	case c.URL == "":
		return nil, fmt.Errorf("transport config: type %q (%s) needs a url", c.Type, kind)
	case c.Command != "" || len(c.Args) > 0 || c.Dir != "":
		return nil, fmt.Errorf("transport config: %s takes a url, not command, args or dir", kind)
	case len(c.Env) > 0:
		return nil, fmt.Errorf("transport config: %s does not take env (use headers for credentials)", kind)
	}
	u, err := parseHTTPURL(kind.String(), c.URL)
	if err != nil {
		return nil, err
	}
	var h http.Header
	if len(c.Headers) > 0 {
		h = make(http.Header, len(c.Headers))
		for k, v := range c.Headers {
			h.Set(k, v)
		}
		if err := checkHeaderValues(h, u); err != nil {
			return nil, err
		}
	}
	switch kind {
	case kindStreamable:
		return &StreamableHTTP{URL: c.URL, Headers: h}, nil
	case kindLegacy:
		return &SSE{URL: c.URL, Headers: h}, nil
	default:
		return &Auto{URL: c.URL, Headers: h}, nil
	}
}
