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
