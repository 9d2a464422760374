package transport

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Identifier is a Transport that can say which server it reaches, so that
// the MCP client can remember per server which protocol era it speaks (the
// 2026-07-28 revision asks dual-era clients to cache that per stdio
// server and per HTTP origin) and skip the probe on the next connect.
type Identifier interface {
	// ServerIdentity returns the kind of transport ("stdio", "http" for
	// Streamable HTTP, "sse" for the legacy HTTP+SSE transport) and an
	// opaque key naming the server: a hash of the command, its arguments,
	// working directory and the environment it is given (one program run
	// with another variable is often another server: a mode, an account),
	// or of the URL's origin and path. Only the hash is kept, as arguments
	// and environment values may be secrets. The key is "" when the
	// configuration cannot name a server.
	ServerIdentity() (kind, key string)
}

var (
	_ Identifier = (*Command)(nil)
	_ Identifier = (*StreamableHTTP)(nil)
	_ Identifier = (*Auto)(nil)
	_ Identifier = (*SSE)(nil)
	_ Identifier = (*recordedTransport)(nil)
)

// ServerIdentity names the command line, directory and environment.
func (c *Command) ServerIdentity() (kind, key string) {
	if c.Command == "" {
		return "stdio", ""
	}
	parts := []string{"stdio", c.Dir, strconv.FormatBool(c.InheritEnv), strconv.Itoa(len(c.Env))}
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		parts = append(parts, k, c.Env[k])
	}
	parts = append(append(parts, c.Command), c.Args...)
	return "stdio", identityHash(parts)
}

// ServerIdentity names the endpoint's origin and path.
func (t *StreamableHTTP) ServerIdentity() (kind, key string) { return "http", urlIdentity(t.URL) }

// ServerIdentity names the endpoint's origin and path, as Streamable HTTP
// is tried first.
func (a *Auto) ServerIdentity() (kind, key string) { return "http", urlIdentity(a.URL) }

// ServerIdentity names the SSE URL's origin and path.
func (t *SSE) ServerIdentity() (kind, key string) { return "sse", urlIdentity(t.URL) }

func (rt *recordedTransport) ServerIdentity() (kind, key string) {
	if id, ok := rt.t.(Identifier); ok {
		return id.ServerIdentity()
	}
	return rt.kind, ""
}

// urlIdentity is the hash of scheme, host and path: the query and the
// userinfo may carry credentials, and they do not change the server.
func urlIdentity(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return identityHash([]string{"http", strings.ToLower(u.Scheme), strings.ToLower(u.Host), u.EscapedPath()})
}

// identityHash joins parts unambiguously and hashes them, so that no
// argument (which may be a token) is kept in the clear.
func identityHash(parts []string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
