package gateway

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"
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

// secretWords mark a key whose value is a secret, compared on the key in
// lower case without "-" and "_".
var secretWords = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey", "authorization", "credential", "cookie", "session", "bearer"}

func looksSecret(key string) bool {
	k := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(key))
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
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
