package transport

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A hostile server that echoes the credentials it received, in each of the
// places where its text becomes an error the caller sees: an error page,
// a JSON-RPC error on a 4xx, in a JSON reply and in an SSE reply.
func TestHTTPEchoedCredentialsAreScrubbed(t *testing.T) {
	const bearer = "tok-ECHOED-0123456789"
	const password = "pw-ECHOED-42"
	echo := func(r *http.Request) string {
		return fmt.Sprintf("auth=%s key=%s", r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rpcErr := fmt.Sprintf(`{"jsonrpc":"2.0","id":%%s,"error":{"code":-32000,"message":%q,"data":%q}}`, echo(r), echo(r))
		switch r.URL.Query().Get("mode") {
		case "500":
			http.Error(w, "boom: "+echo(r), http.StatusInternalServerError)
		case "400":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, rpcErr, "null")
		case "sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: "+rpcErr+"\n\n", "1")
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, rpcErr, "1")
		}
	}))
	defer srv.Close()
	secrets := []string{bearer, password, "key-ECHOED-7",
		base64.StdEncoding.EncodeToString([]byte("user:" + password))}
	for _, tc := range []struct {
		mode string
		auth string
	}{
		{"500", "Bearer " + bearer},
		{"400", "Bearer " + bearer},
		{"json", "Bearer " + bearer},
		{"sse", "Bearer " + bearer},
		{"500", ""}, // Basic credentials from the URL's userinfo
		{"json", ""},
	} {
		t.Run(tc.mode+tc.auth, func(t *testing.T) {
			u := strings.Replace(srv.URL, "http://", "http://user:"+password+"@", 1) + "/mcp?mode=" + tc.mode
			h := http.Header{"X-Api-Key": {"key-ECHOED-7"}}
			if tc.auth != "" {
				h.Set("Authorization", tc.auth)
			}
			s := httpConnect(t, &StreamableHTTP{URL: u, Headers: h, DisableListener: true})
			var text string
			if err := s.Write(context.Background(), httpRequest(t, 1, "tools/list", nil)); err != nil {
				text = err.Error()
			} else {
				e := httpErrorResponse(t, httpRead(t, s), 1)
				text = e.Message + " " + string(e.Data)
			}
			if !strings.Contains(text, redactedMark) {
				t.Fatalf("error %q: want the echo with its secrets scrubbed", text)
			}
			for _, sec := range secrets {
				if strings.Contains(text, sec) {
					t.Fatalf("error leaks %s: %s", sec, text)
				}
			}
		})
	}
}

// The legacy SSE transport: an error response on the GET stream that
// echoes the stream's credentials reaches Read scrubbed.
func TestLegacySSEEchoedCredentialsAreScrubbed(t *testing.T) {
	const bearer = "tok-LEGACY-0123456789"
	ls := newLegacyServer(t, "/messages")
	s := connectLegacy(t, &SSE{URL: ls.url(), Headers: http.Header{"Authorization": {"Bearer " + bearer}}})
	h := <-ls.gets
	ls.events <- message(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"you sent %s","data":{"auth":%q}}}`,
		h.Get("Authorization"), h.Get("Authorization")))
	m, err := s.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e := httpErrorResponse(t, m, 1)
	text := e.Message + " " + string(e.Data)
	if strings.Contains(text, bearer) || !strings.Contains(text, redactedMark) {
		t.Fatalf("error response %q: want the token scrubbed", text)
	}
}

// The stateless era's Mcp-Method and Mcp-Name name the request, not a
// credential: an error that repeats them stays readable.
func TestRoutingHeadersAreNoSecrets(t *testing.T) {
	req, err := http.NewRequest("POST", "http://127.0.0.1/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "roots")
	req.Header.Set("X-Api-Key", "key-0a1b2c")
	got := sentSecrets(req)
	if slices.Contains(got, "tools/call") || slices.Contains(got, "roots") || !slices.Contains(got, "key-0a1b2c") {
		t.Errorf("sentSecrets = %q", got)
	}
}

// A bad frame quotes the server's text in its decode error (the excerpt,
// and the reason for a bad member), which reaches the error hook: a
// server that echoes the credentials in one finds them scrubbed, on the
// GET listener, in a POST's event stream and in a JSON batch, and on the
// legacy SSE stream. A token that the excerpt's cut ends in the middle of
// goes too.
func TestEchoedCredentialsInBadFramesAreScrubbed(t *testing.T) {
	const bearer = "tok-FRAME-0123456789abcdef"
	check := func(t *testing.T, err error) {
		t.Helper()
		var text string
		if d := new(jsonrpc.DecodeError); errors.As(err, &d) {
			text = d.Reason + " " + d.Excerpt
		} else {
			t.Fatalf("Read error = %v, want a decode error", err)
		}
		if strings.Contains(text, bearer[:minSecretLen+2]) || !strings.Contains(text, redactedMark) {
			t.Fatalf("decode error %q: want the token scrubbed", text)
		}
	}
	// Bad frames: the token in a member of a message without "jsonrpc";
	// in "jsonrpc" itself (the reason quotes it); and cut by the excerpt.
	pad := strings.Repeat("x", 200-len(`{"method":"m","params":{"p":"`)-6)
	frames := []string{
		`{"method":"m","params":{"echo":"%s"}}`,
		`{"jsonrpc":"%s","method":"m"}`,
		`{"method":"m","params":{"p":"` + pad + `%s"}}`,
	}
	t.Run("streamable", func(t *testing.T) {
		for i, f := range frames {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				data := fmt.Sprintf(f, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
				switch r.Method {
				case http.MethodGet: // the listener
					w.Header().Set("Content-Type", "text/event-stream")
					fmt.Fprintf(w, "data: %s\n\n", data)
					w.(http.Flusher).Flush()
					<-r.Context().Done()
				default:
					if i%2 == 0 {
						w.Header().Set("Content-Type", "text/event-stream")
						fmt.Fprintf(w, "data: %s\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n", data)
					} else {
						w.Header().Set("Content-Type", "application/json")
						fmt.Fprintf(w, `[%s,{"jsonrpc":"2.0","id":1,"result":{}}]`, data)
					}
				}
			}))
			s := httpConnect(t, &StreamableHTTP{URL: srv.URL, Headers: http.Header{"Authorization": {"Bearer " + bearer}}})
			httpWrite(t, s, httpRequest(t, 1, "tools/list", nil))
			// The POST's reply: the bad frame and the response, in an
			// order that depends on the kind of reply.
			var bad error
			for range 2 {
				if m, err := s.Read(context.Background()); err != nil {
					bad = err
				} else if r, ok := m.(*jsonrpc.Response); !ok || r.Error != nil {
					t.Fatalf("Read = %v, want the response", m)
				}
			}
			check(t, bad)
			httpWrite(t, s, httpNotification(t, "notifications/initialized", nil))
			_, err := s.Read(context.Background())
			check(t, err) // from the listener
			s.Close()     // ends the listener's GET, which srv.Close waits for
			srv.Close()
		}
	})
	t.Run("legacy", func(t *testing.T) {
		ls := newLegacyServer(t, "/messages")
		s := connectLegacy(t, &SSE{URL: ls.url(), Headers: http.Header{"Authorization": {"Bearer " + bearer}}})
		h := <-ls.gets
		for _, f := range frames {
			ls.events <- message(fmt.Sprintf(f, strings.TrimPrefix(h.Get("Authorization"), "Bearer ")))
			_, err := s.Read(context.Background())
			check(t, err)
		}
	})
}
