package gateway

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// AuditOptions configure the audit log: one JSON line per routed call.
type AuditOptions struct {
	// Out receives the lines, each in one Write.
	Out io.Writer
	// Arguments adds each call's arguments, with the values of keys that
	// look secret ("password", "token", "api_key", ...) blanked and every
	// string passed through Options.Redact.
	Arguments bool
}

// auditLine is one call in the audit log; docs/serve.md lists its fields.
type auditLine struct {
	Time       string          `json:"time"`
	Who        string          `json:"who"`
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	DurationMS float64         `json:"duration_ms"`
	Outcome    Outcome         `json:"outcome"`
	Error      string          `json:"error,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
}

// auditLog writes the lines; a failed write is reported once to warn and
// does not stop the calls.
type auditLog struct {
	opts   AuditOptions
	redact func(string) string
	warn   func(error)

	mu     sync.Mutex
	failed bool
}

func (a *auditLog) hook(_ context.Context, c *Call) (context.Context, func(*CallEnd)) {
	start := time.Now()
	return nil, func(e *CallEnd) {
		line := auditLine{
			Time: start.UTC().Format(time.RFC3339Nano), Who: a.redact(c.Host),
			Server: c.Server, Tool: c.Tool,
			DurationMS: float64(e.Duration.Microseconds()) / 1000,
			Outcome:    e.Outcome, Error: a.redact(e.Error),
		}
		if a.opts.Arguments {
			line.Arguments = blankSecrets(c.Arguments, a.redact)
		}
		b, err := json.Marshal(line)
		if err != nil {
			return // every field is a plain value: cannot happen
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if _, err := a.opts.Out.Write(append(b, '\n')); err != nil && !a.failed {
			a.failed = true
			a.warn(err)
		}
	}
}

// secretWords mark a key whose value is a secret wherever they appear in
// it, compared on the key in lower case without "-", "_" and ".": long
// enough that a key holding one is about that secret ("db_password",
// "x-api-key", "sessionId").
var secretWords = []string{
	"password", "passwd", "passphrase", "pwd", "secret", "token", "apikey", "accesskey", "privatekey", "sshkey",
	"signingkey", "encryptionkey", "clientkey", "authkey", "authorization", "credential", "cookie", "session",
	"bearer", "jwt", "signature", "totp",
}

// secretParts mark one when they are a whole word of the key (split at
// "-", "_", ".", spaces and where lower case turns upper): short words
// that are also pieces of harmless ones ("author", "spinner", "design").
var secretParts = []string{"auth", "pass", "pin", "otp", "mfa", "sig"}

func looksSecret(key string) bool {
	k := strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(key))
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	for _, part := range keyParts(key) {
		if slices.Contains(secretParts, part) {
			return true
		}
	}
	return false
}

// keyParts splits a key into its words, in lower case: "x-auth",
// "authPin" and "AUTH_PIN" all hold "auth".
func keyParts(key string) []string {
	var parts []string
	start := -1
	prevLower := false
	for i, r := range key {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum || prevLower && unicode.IsUpper(r) {
			if start >= 0 {
				parts = append(parts, strings.ToLower(key[start:i]))
			}
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
		prevLower = unicode.IsLower(r)
	}
	if start >= 0 {
		parts = append(parts, strings.ToLower(key[start:]))
	}
	return parts
}

// blankSecrets is args with the values of secret-looking keys replaced by
// "***", at any depth, and every other string redacted. Arguments that
// are not JSON are left out entirely.
func blankSecrets(args json.RawMessage, redact func(string) string) json.RawMessage {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return json.RawMessage(`"(not JSON)"`)
	}
	b, err := json.Marshal(blankValue(v, redact))
	if err != nil {
		return nil
	}
	return b
}

func blankValue(v any, redact func(string) string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if looksSecret(k) {
				x[k] = "***"
			} else {
				x[k] = blankValue(val, redact)
			}
		}
		return x
	case []any:
		for i, val := range x {
			x[i] = blankValue(val, redact)
		}
		return x
	case string:
		return redact(x)
	}
	return v
}
