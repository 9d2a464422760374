package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
	"github.com/mcpwire/mcpwire/internal/renewhook"
	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/internal/wirerec"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Recorder writes a wire recording: every JSON-RPC message that passes
// through the streams of the transports it wraps (see Record), in both
// directions, as one JSON object a line:
//
//	{"time":"2026-12-03T09:00:00.123Z","direction":"send","transport":"stdio","message":{...}}
//
// direction is "send" (client to server) or "receive". Headers are never
// recorded, and the secrets the Recorder knows (see AddSecrets) are
// replaced with "[redacted]" wherever they appear in a message's strings,
// however the peer escaped them. mcptest
// replays such a file as a scripted server.
//
// A Recorder is safe for concurrent use; lines of concurrent streams are
// never interleaved. It does not close its writer. After the first write
// error it records nothing more; Err reports that error. Recording costs
// nothing on streams that are not wrapped.
type Recorder struct {
	mu      sync.Mutex
	w       io.Writer
	secrets []string // longest first
	err     error
	buf     []byte
	now     func() time.Time
}

// NewRecorder returns a Recorder writing to w.
func NewRecorder(w io.Writer) *Recorder {
	return &Recorder{w: w, now: time.Now}
}

// AddSecrets makes r redact each of values (API keys, tokens, passwords)
// from what it records. Values shorter than 4 bytes are ignored: redacting
// them would garble the messages without hiding anything.
func (r *Recorder) AddSecrets(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range values {
		if len(v) < 4 {
			continue
		}
		r.secrets = append(r.secrets, v)
	}
	// Longest first, so that a secret containing another goes whole.
	for i := 1; i < len(r.secrets); i++ {
		for j := i; j > 0 && len(r.secrets[j]) > len(r.secrets[j-1]); j-- {
			r.secrets[j], r.secrets[j-1] = r.secrets[j-1], r.secrets[j]
		}
	}
}

// Err returns the first error writing the recording, or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// record writes one line for msg. Errors stop the recording, never the
// connection.
func (r *Recorder) record(dir wirerec.Direction, transport string, msg jsonrpc.Message) {
	b, err := jsonrpc.EncodeMessage(msg)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if err != nil {
		return // not a message the stream could carry either
	}
	b = r.redact(b)
	line, err := wirerec.AppendLine(r.buf[:0], wirerec.Entry{Time: r.now(), Direction: dir, Transport: transport, Message: b})
	if err == nil {
		_, err = r.w.Write(line)
	}
	r.buf = line[:0]
	r.err = err
}

// redact replaces the secrets in the strings of message b; r.mu is held.
// It looks at the decoded text of each string: a server may escape any
// character of a secret (\u0070 for p), so that neither the secret's
// bytes nor the form an encoder of ours writes stand in b. Without a
// backslash in b, a string's bytes are its text, so a message that holds
// neither a backslash nor a secret is left as it is without a walk.
func (r *Recorder) redact(b []byte) []byte {
	if len(r.secrets) == 0 {
		return b
	}
	found := bytes.IndexByte(b, '\\') >= 0
	for _, s := range r.secrets {
		found = found || bytes.Contains(b, []byte(s))
	}
	if !found {
		return b
	}
	b, _ = jsonscan.MapStrings(b, func(text string) string {
		for _, s := range r.secrets {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
		return text
	})
	return b
}

// Record returns a Transport that connects through t and records every
// message of its streams to r, naming the transport as kind ("stdio",
// "http", …; empty: guessed from t's type). The secrets t is configured
// with (a Command's Env values, the Headers of the HTTP transports, a
// password in their URL) are added to r's secrets.
//
// The recorded stream forwards SetProtocolVersion, SessionID and the
// listener hold; it does not offer reading in turns or pushing, so the
// engine reads it on a goroutine of its own, which is slower but sees
// every message.
func Record(t Transport, r *Recorder, kind string) Transport {
	secrets, guessed := transportSecrets(t)
	r.AddSecrets(secrets...)
	if kind == "" {
		kind = guessed
	}
	return &recordedTransport{t: t, r: r, kind: kind}
}

// transportSecrets returns the secrets in the configuration of the
// transports this package knows, and a name for the kind.
func transportSecrets(t Transport) ([]string, string) {
	var out []string
	headers := func(h map[string][]string) {
		for _, vs := range h {
			out = append(out, vs...)
		}
	}
	urlPassword := func(raw string) {
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			if p, ok := u.User.Password(); ok {
				out = append(out, p)
			}
		}
	}
	switch c := t.(type) {
	case *Command:
		for _, v := range c.Env {
			out = append(out, v)
		}
		return out, "stdio"
	case *StreamableHTTP:
		headers(c.Headers)
		urlPassword(c.URL)
		return out, "http"
	case *SSE:
		headers(c.Headers)
		urlPassword(c.URL)
		return out, "sse"
	case *Auto:
		headers(c.Headers)
		urlPassword(c.URL)
		urlPassword(c.LegacyURL)
		return out, "http"
	}
	return nil, strings.TrimPrefix(fmt.Sprintf("%T", t), "*")
}

type recordedTransport struct {
	t    Transport
	r    *Recorder
	kind string
}

func (rt *recordedTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	s, err := rt.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordedStream{s: s, r: rt.r, kind: rt.kind}, nil
}

// recordedStream records what passes through s.
type recordedStream struct {
	s    jsonrpc.Stream
	r    *Recorder
	kind string
}

func (rs *recordedStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := rs.s.Read(ctx)
	if err == nil {
		rs.r.record(wirerec.Receive, rs.kind, m)
	}
	return m, err
}

// Write records msg before writing it: the reply may be read (and
// recorded) before Write returns, as over HTTP, and a recording whose
// answers come before their requests could not be replayed.
func (rs *recordedStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	rs.r.record(wirerec.Send, rs.kind, msg)
	return rs.s.Write(ctx, msg)
}

func (rs *recordedStream) Close() error { return rs.s.Close() }

func (rs *recordedStream) PendingInput() (int, bool) {
	if p, ok := rs.s.(seam.InputPending); ok {
		return p.PendingInput()
	}
	return 0, false
}

func (rs *recordedStream) SetProtocolVersion(v string) {
	if p, ok := rs.s.(seam.ProtocolVersionSetter); ok {
		p.SetProtocolVersion(v)
	}
}

func (rs *recordedStream) HoldListener() {
	if p, ok := rs.s.(seam.ListenerHolder); ok {
		p.HoldListener()
	}
}

func (rs *recordedStream) ReleaseListener(ctx context.Context) {
	if p, ok := rs.s.(seam.ListenerHolder); ok {
		p.ReleaseListener(ctx)
	}
}

func (rs *recordedStream) SessionID() string {
	if p, ok := rs.s.(SessionIDer); ok {
		return p.SessionID()
	}
	return ""
}

// SetRenewalHook passes the client's renewal hook on, so that a recorded
// Streamable HTTP session still sets its subscriptions up again after a
// renewal (see internal/renewhook).
func (rs *recordedStream) SetRenewalHook(fn func(ctx context.Context)) {
	if h, ok := rs.s.(renewhook.Hooker); ok {
		h.SetRenewalHook(fn)
	}
}
