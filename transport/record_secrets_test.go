package transport

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/wirerec"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Record takes the secrets of the HTTP transports from their headers and
// URL passwords, whichever of them is wrapped.
func TestRecordFindsTheSecretsOfHTTPTransports(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer tok-1"}, "X-Api-Key": {"key-2"}}
	for _, tc := range []struct {
		tr   Transport
		kind string
		want []string
	}{
		{&StreamableHTTP{URL: "http://u:pw-3@127.0.0.1/mcp", Headers: h}, "http", []string{"Bearer tok-1", "key-2", "pw-3"}},
		{&SSE{URL: "http://127.0.0.1/sse", Headers: h}, "sse", []string{"Bearer tok-1", "key-2"}},
		{&Auto{URL: "http://127.0.0.1/mcp", LegacyURL: "http://u:pw-4@127.0.0.1/sse", Headers: h}, "http", []string{"Bearer tok-1", "key-2", "pw-4"}},
	} {
		got, kind := transportSecrets(tc.tr)
		slices.Sort(got)
		if kind != tc.kind || !slices.Equal(got, tc.want) {
			t.Errorf("%T: %q %s, want %q %s", tc.tr, got, kind, tc.want, tc.kind)
		}
	}
}

// A secret is redacted however a server escapes it: with characters JSON
// escapes (a quote, a backslash, <, > and &), written as \uXXXX or not at
// all, each string's text is what counts. The rest of the message stays
// as the server wrote it.
func TestRecordRedactsEscapedSecrets(t *testing.T) {
	const quoted, html = `pa"ss\word-1`, `k<e>y&wörd-2`
	var buf bytes.Buffer
	rec := NewRecorder(&buf)
	rec.AddSecrets(quoted, html)
	for _, result := range []string{
		`{"a":"pa\"ss\\word-1","n":1.50}`,
		`{"a":"\u0070a\u0022ss\u005cword-1 and k<e>y&w\u00f6rd-2"}`,
		`{"k\u003ce\u003ey\u0026wörd-2":"k<e>y&wörd-2"}`,
	} {
		rec.record(wirerec.Receive, "stdio", &jsonrpc.Response{ID: jsonrpc.Int64ID(1), Result: json.RawMessage(result)})
	}
	entries, err := wirerec.Decode(&buf)
	if err != nil || len(entries) != 3 {
		t.Fatalf("%d entries, %v:\n%s", len(entries), err, buf.String())
	}
	want := []string{`{"a":"[redacted]","n":1.50}`, `{"a":"[redacted] and [redacted]"}`, `{"[redacted]":"[redacted]"}`}
	for i, e := range entries {
		var m struct{ Result json.RawMessage }
		if err := json.Unmarshal(e.Message, &m); err != nil || string(m.Result) != want[i] {
			t.Errorf("message %d: %s, want the result %s", i, e.Message, want[i])
		}
		if strings.Contains(string(e.Message), "ss") || strings.Contains(string(e.Message), "rd-2") {
			t.Errorf("message %d keeps part of a secret: %s", i, e.Message)
		}
	}
}

// A JSON-RPC error's data keeps no secret however the server escaped it;
// data that is not JSON still loses the secret's bytes.
func TestScrubRPCErrorEscapedData(t *testing.T) {
	const secret = `pa"ss\word-1`
	for data, want := range map[string]string{
		`{"echo":"\u0070a\u0022ss\u005cword-1!","n":1.50}`: `{"echo":"[redacted]!","n":1.50}`,
		`{"echo":"pa\"ss\\word-1"}`:                        `{"echo":"[redacted]"}`,
		`not json pa"ss\word-1`:                            `not json [redacted]`,
	} {
		e := &jsonrpc.Error{Message: "said " + secret, Data: json.RawMessage(data)}
		scrubRPCError(e, []string{secret})
		if string(e.Data) != want || e.Message != "said [redacted]" {
			t.Errorf("data %s: %s %q, want %s", data, e.Data, e.Message, want)
		}
	}
}
