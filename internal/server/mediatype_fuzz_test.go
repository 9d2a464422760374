package server

import (
	"mime"
	"strings"
	"testing"
)

// FuzzMediaType holds mediaType's shortcut for plain "type/subtype" values
// to what mime.ParseMediaType answers for any Content-Type or Accept part a
// client sends.
func FuzzMediaType(f *testing.F) {
	for _, v := range []string{"application/json", " text/event-stream", "*/*", "Application/JSON",
		"application/json; charset=utf-8", "a/b/c", "/json", "application/", "text/event-stream;q=0.9",
		"application/vnd.api+json", "x-y/z_1.2", "a/b c", "a/\x80", ""} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		want := ""
		if mt, _, err := mime.ParseMediaType(strings.TrimSpace(v)); err == nil {
			want = mt
		}
		if got := mediaType(v); got != want {
			t.Fatalf("mediaType(%q) = %q, mime.ParseMediaType says %q", v, got, want)
		}
	})
}
