package transport

import (
	"net/http"
	"slices"
	"testing"
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
