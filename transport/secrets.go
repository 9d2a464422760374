package transport

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// redactedMark replaces a credential that a server echoed back.
const redactedMark = "[redacted]"

// minSecretLen: shorter values are not scrubbed, since replacing every
// "ab" in a message would garble it and such a value guards nothing.
const minSecretLen = 4

// publicHeaders are request headers whose values are the transport's own
// and no secret; every other header the request carried (Authorization,
// configured headers, Mcp-Session-Id, cookies) is treated as a credential.
var publicHeaders = map[string]bool{
	"Accept":               true,
	"Accept-Encoding":      true,
	"Cache-Control":        true,
	"Connection":           true,
	"Content-Type":         true,
	"Content-Length":       true,
	"User-Agent":           true,
	"Mcp-Protocol-Version": true,
	// The stateless era's routing headers repeat the method and the
	// tool, prompt or resource name: scrubbing them would turn every
	// error about a call into "[redacted]".
	"Mcp-Method":    true,
	"Mcp-Name":      true,
	"Last-Event-Id": true,
}

// sentSecrets lists the credentials req carried: the values of its
// non-public headers, the credential part of an Authorization header
// (the token without "Bearer ", and for Basic the base64 value and the
// password in it), and the URL's password. A hostile server may echo any
// of them in an error body or a JSON-RPC error message; scrubSecrets takes
// them out again. It runs only when an error is built, never on success.
func sentSecrets(req *http.Request) []string {
	if req == nil {
		return nil
	}
	var out []string
	for k, vs := range req.Header {
		if publicHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		for _, v := range vs {
			out = appendCredential(out, v)
		}
	}
	if req.URL != nil && req.URL.User != nil {
		if pw, ok := req.URL.User.Password(); ok {
			out = append(out, pw)
		}
	}
	return out
}

// appendCredential adds a header value and, for an Authorization-style
// "scheme credential" value, the credential and what a Basic one encodes.
func appendCredential(out []string, v string) []string {
	out = append(out, v)
	scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok {
		return out
	}
	cred = strings.TrimSpace(cred)
	out = append(out, cred)
	if strings.EqualFold(scheme, "Basic") {
		if raw, err := base64.StdEncoding.DecodeString(cred); err == nil {
			out = append(out, string(raw))
			if _, pw, ok := strings.Cut(string(raw), ":"); ok {
				out = append(out, pw)
			}
		}
	}
	return out
}

// scrubSecrets replaces every secret in s with a mark. Longer secrets go
// first, so that a token is not half replaced as part of a shorter one.
func scrubSecrets(s string, secrets []string) string {
	for _, v := range longestFirst(secrets) {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, redactedMark)
		}
	}
	return s
}

// scrubRPCError takes the secrets out of a server's JSON-RPC error object:
// its message and its data, which reach the user as the call's error.
func scrubRPCError(e *jsonrpc.Error, secrets []string) {
	if e == nil || len(secrets) == 0 {
		return
	}
	e.Message = scrubSecrets(e.Message, secrets)
	// The data is JSON the server wrote, escaped as it liked (\u0070 for
	// p): its strings' decoded text is what holds a secret.
	if jsonscan.Valid(e.Data) {
		e.Data, _ = jsonscan.MapStrings(e.Data, func(s string) string { return scrubSecrets(s, secrets) })
		return
	}
	for _, v := range longestFirst(secrets) {
		if bytes.Contains(e.Data, []byte(v)) {
			e.Data = bytes.ReplaceAll(e.Data, []byte(v), []byte(redactedMark))
		}
	}
}

// scrubDecodeError takes the secrets out of what a bad frame's
// *jsonrpc.DecodeError quotes of the server's text: its excerpt and its
// reason. The excerpt is the frame's start, cut at a fixed length, so a
// secret it ends in the middle of is taken out too, down to its first
// minSecretLen bytes.
func scrubDecodeError(err error, secrets []string) {
	var d *jsonrpc.DecodeError
	if len(secrets) == 0 || !errors.As(err, &d) {
		return
	}
	d.Reason = scrubSecrets(d.Reason, secrets)
	ex := scrubSecrets(d.Excerpt, secrets)
	for _, v := range longestFirst(secrets) {
		for n := min(len(v), len(ex)+1) - 1; n >= minSecretLen; n-- {
			if strings.HasSuffix(ex, v[:n]) {
				ex = ex[:len(ex)-n] + redactedMark
				break
			}
		}
	}
	d.Excerpt = ex
}

// longestFirst returns the secrets worth scrubbing, longest first.
func longestFirst(secrets []string) []string {
	out := make([]string, 0, len(secrets))
	for _, v := range secrets {
		if len(v) >= minSecretLen {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}
