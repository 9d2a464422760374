package config

import (
	"fmt"
	"strings"
)

// ParseType maps every spelling of a transport type that a host's config
// (or mcpwire's --transport flag) uses onto a Type constant: "stdio";
// "http", "streamable-http", "streamableHttp", "streamable_http" and
// "streamable" for Streamable HTTP; "sse" for legacy HTTP+SSE; "auto".
// Case, "-" and "_" are ignored. It is the one place that knows the
// spellings: the loader, transport.FromServer and the CLI all call it.
// An unknown spelling is an error naming it (clipped) and the choices.
func ParseType(t string) (string, error) {
	switch strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(strings.TrimSpace(t))) {
	case "stdio":
		return TypeStdio, nil
	case "http", "streamablehttp", "streamable":
		return TypeHTTP, nil
	case "sse":
		return TypeSSE, nil
	case "auto":
		return TypeAuto, nil
	}
	return "", fmt.Errorf("config: unknown type %s: want \"stdio\", \"http\" (also \"streamable-http\", \"streamableHttp\"), \"sse\" or \"auto\"", quoteName(t))
}
