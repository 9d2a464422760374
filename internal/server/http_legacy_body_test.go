package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The legacy transport's POSTed messages are bounded as the Streamable
// endpoint's are: before, /message read any body whole into memory, so
// one client could make the server (mcpwire serve --legacy-sse) allocate
// as much as it cared to send.
func TestLegacyMessageBodyIsBounded(t *testing.T) {
	hs := NewHTTPServer(t, NewDefault(&Options{NoRecord: true}), nil)
	endpoint := openLegacy(t, hs)
	// A well-formed notification, one byte over the bound, sent as it is
	// made rather than held in memory here.
	head, tail := `{"jsonrpc":"2.0","method":"notifications/big","params":{"p":"`, `"}}`
	pad := int64(maxRequestBody - len(head) - len(tail) + 1)
	body := io.MultiReader(strings.NewReader(head), io.LimitReader(neverEnding('x'), pad), strings.NewReader(tail))
	post, err := hs.Client().Post(endpoint, "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a message over %d bytes got %s, want 413", maxRequestBody, post.Status)
	}
}

// neverEnding reads as an endless run of one byte.
type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// The legacy endpoint refuses a body not declared JSON as /mcp does (415,
// the same answer), and its messages do not name the test server: the
// core serves `mcpwire serve` too.
func TestLegacyPostRefusals(t *testing.T) {
	hs := NewHTTPServer(t, NewDefault(nil), nil)
	endpoint := openLegacy(t, hs)
	post := func(url, contentType, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Accept", "application/json, text/event-stream") // what /mcp needs
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return resp.StatusCode, readAll(resp)
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	legacyCode, legacyBody := post(endpoint, "text/plain", ping)
	mcpCode, mcpBody := post(hs.URL, "text/plain", ping)
	if legacyCode != http.StatusUnsupportedMediaType || legacyBody != mcpBody || mcpCode != legacyCode {
		t.Errorf("text/plain: legacy %d %q, /mcp %d %q; want the same 415", legacyCode, legacyBody, mcpCode, mcpBody)
	}
	for _, tt := range []struct {
		url, body string
		code      int
	}{
		{strings.Split(endpoint, "?")[0] + "?sessionId=nope", ping, http.StatusNotFound},
		{endpoint, `{"jsonrpc":"2.0","id":1`, http.StatusBadRequest},
	} {
		code, body := post(tt.url, "application/json", tt.body)
		if code != tt.code || body == "" || strings.Contains(body, "mcptest") {
			t.Errorf("POST %s %s: %d %q; want %d with a message that does not name mcptest", tt.url, tt.body, code, body, tt.code)
		}
	}
	if code, _ := post(endpoint, "application/json; charset=utf-8", ping); code != http.StatusAccepted {
		t.Errorf("a JSON body with parameters: %d, want 202", code)
	}
}
