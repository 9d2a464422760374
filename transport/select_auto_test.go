package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

func replyProbe(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func connectAuto(t *testing.T, a *Auto) jsonrpc.Stream {
	t.Helper()
	s, err := a.Connect(context.Background())
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func noGET(t *testing.T, ls *legacyServer) {
	t.Helper()
	select {
	case h := <-ls.gets:
		t.Errorf("a legacy GET was made (headers %v); no fallback expected", h)
	default:
	}
}

func TestAutoFallsBackToLegacy(t *testing.T) {
	for _, status := range []int{http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			ls := newLegacyServer(t, "/message?sessionId=1", replyProbe(status, "Cannot POST /mcp"))
			var fellBack error
			s := connectAuto(t, &Auto{URL: ls.srv.URL + "/mcp", Headers: http.Header{"Authorization": {"Bearer t"}},
				OnFallback: func(err error) { fellBack = err }})
			ctx := context.Background()
			if err := s.Write(ctx, mustRequest(t, 1, "initialize")); err != nil {
				t.Fatalf("Write(initialize) = %v", err)
			}
			if !IsHTTPStatus(fellBack, status) {
				t.Errorf("OnFallback got %v, want the %d *HTTPError", fellBack, status)
			}
			if h := <-ls.gets; h.Get("Authorization") != "Bearer t" {
				t.Errorf("legacy GET lacks the configured header: %v", h)
			}
			p := <-ls.posts
			if p.path != "/message" || !strings.Contains(p.body, `"initialize"`) {
				t.Fatalf("initialize re-sent as %+v", p)
			}
			ls.events <- message(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05"}}`)
			m, err := s.Read(ctx)
			if r, ok := m.(*jsonrpc.Response); err != nil || !ok || r.ID != jsonrpc.Int64ID(1) {
				t.Fatalf("Read = %#v, %v", m, err)
			}
			// Later writes go to legacy directly.
			if err := s.Write(ctx, mustRequest(t, 2, "tools/list")); err != nil {
				t.Fatal(err)
			}
			if p := <-ls.posts; p.path != "/message" {
				t.Errorf("second message went to %s", p.path)
			}
			if id := s.(SessionIDer).SessionID(); id != "" {
				t.Errorf("legacy SessionID = %q", id)
			}
		})
	}
}

func TestAutoLegacyURL(t *testing.T) {
	ls := newLegacyServer(t, "/message?sessionId=1", replyProbe(http.StatusNotFound, ""))
	s := connectAuto(t, &Auto{URL: ls.srv.URL + "/mcp", LegacyURL: ls.srv.URL + "/sse"})
	if err := s.Write(context.Background(), mustRequest(t, 1, "initialize")); err != nil {
		t.Fatal(err)
	}
	if p := <-ls.posts; p.path != "/message" {
		t.Fatalf("POST to %s", p.path)
	}
}

func TestAutoDoesNotFallBackOnAuth(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			ls := newLegacyServer(t, "/message", replyProbe(status, "", "WWW-Authenticate", `Bearer resource_metadata="http://as/prm"`))
			s := connectAuto(t, &Auto{URL: ls.srv.URL + "/mcp", OnFallback: func(err error) { t.Errorf("fell back on %v", err) }})
			err := s.Write(context.Background(), mustRequest(t, 1, "initialize"))
			var he *HTTPError
			if !errors.As(err, &he) || he.StatusCode != status || !strings.Contains(he.WWWAuthenticate, "resource_metadata") {
				t.Fatalf("Write = %v, want the %d *HTTPError with its WWW-Authenticate", err, status)
			}
			noGET(t, ls)
		})
	}
}

func TestAutoJSONRPCErrorOn400IsAnAnswer(t *testing.T) {
	ls := newLegacyServer(t, "/message", replyProbe(http.StatusBadRequest,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"}}`,
		"Content-Type", "application/json"))
	s := connectAuto(t, &Auto{URL: ls.srv.URL + "/mcp"})
	ctx := context.Background()
	if err := s.Write(ctx, mustRequest(t, 1, "initialize")); err != nil {
		t.Fatalf("Write = %v", err)
	}
	m, err := s.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); err != nil || !ok || r.Error == nil || r.Error.Code != -32000 {
		t.Fatalf("Read = %#v, %v; want the server's error as the response", m, err)
	}
	noGET(t, ls)
}

func TestAutoStaysOnStreamableHTTP(t *testing.T) {
	ls := newLegacyServer(t, "/message", replyProbe(http.StatusOK,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`,
		"Content-Type", "application/json", "Mcp-Session-Id", "sess-1"))
	s := connectAuto(t, &Auto{URL: ls.srv.URL + "/mcp", OnFallback: func(err error) { t.Errorf("fell back on %v", err) }})
	ctx := context.Background()
	if err := s.Write(ctx, mustRequest(t, 1, "initialize")); err != nil {
		t.Fatal(err)
	}
	m, err := s.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); err != nil || !ok || r.ID != jsonrpc.Int64ID(1) {
		t.Fatalf("Read = %#v, %v", m, err)
	}
	if id := s.(SessionIDer).SessionID(); id != "sess-1" {
		t.Errorf("SessionID = %q, want the Streamable HTTP session", id)
	}
	s.(seam.ProtocolVersionSetter).SetProtocolVersion("2025-11-25") // must reach the HTTP stream without panicking
	noGET(t, ls)
}

func TestAutoNeitherTransport(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	s := connectAuto(t, &Auto{URL: srv.URL + "/mcp"})
	err := s.Write(context.Background(), mustRequest(t, 1, "initialize"))
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 404 || he.Method != http.MethodPost {
		t.Fatalf("Write = %v, want the Streamable HTTP 404 first in the chain", err)
	}
	if !strings.Contains(err.Error(), "neither Streamable HTTP") || !strings.Contains(err.Error(), "GET") {
		t.Errorf("error %q does not explain both attempts", err)
	}
}

func TestAutoCloseBeforeDecision(t *testing.T) {
	ls := newLegacyServer(t, "/message", replyProbe(http.StatusNotFound, ""))
	s, err := (&Auto{URL: ls.srv.URL + "/mcp"}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	readErr := make(chan error, 1)
	go func() {
		_, err := s.Read(context.Background())
		readErr <- err
	}()
	s.Close()
	s.Close()
	if err := <-readErr; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Read = %v, want jsonrpc.ErrClosed", err)
	}
	if err := s.Write(context.Background(), mustRequest(t, 1, "initialize")); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Write after Close = %v", err)
	}
	noGET(t, ls)
}

func TestAutoConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		a    Auto
		want string
	}{
		{Auto{}, "needs a URL"},
		{Auto{URL: "http://h/mcp", LegacyURL: "file:///x"}, "legacy SSE URL"},
		{Auto{URL: "http://h/mcp", Headers: http.Header{"X": {"a\nb"}}}, `header "X"`},
	} {
		if err := connectErr(context.Background(), &tc.a); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Connect(%+v) = %v, want %q", tc.a, err, tc.want)
		}
	}
}

// chanReceiver takes pushed messages (see readmode.Pusher) into channels.
type chanReceiver struct {
	msgs  chan jsonrpc.Message
	ended chan error
}

func newChanReceiver() *chanReceiver {
	return &chanReceiver{msgs: make(chan jsonrpc.Message, 16), ended: make(chan error, 1)}
}

func (r *chanReceiver) Receive(msg jsonrpc.Message, err error) bool {
	if err == nil {
		r.msgs <- msg
	}
	return true
}

func (r *chanReceiver) end(err error) {
	select {
	case r.ended <- err:
	default: // a second end is a failure the first one shows
	}
}

// next returns the next pushed message, failing on a hang.
func (r *chanReceiver) next(t *testing.T) jsonrpc.Message {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	select {
	case m := <-r.msgs:
		return m
	case <-timeout.C:
		t.Fatal("nothing was pushed")
		return nil
	}
}

// Auto pushes, like the transport it chooses: Streamable HTTP directly,
// legacy SSE through a goroutine that reads it. Giving up Streamable HTTP
// for legacy SSE does not end the connection; Close does.
func TestAutoPushes(t *testing.T) {
	for name, probe := range map[string]http.HandlerFunc{
		"streamable HTTP": replyProbe(http.StatusOK, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`, "Content-Type", "application/json"),
		"legacy SSE":      replyProbe(http.StatusNotFound, "Cannot POST /mcp"),
	} {
		t.Run(name, func(t *testing.T) {
			ls := newLegacyServer(t, "/message?sessionId=1", probe)
			s := connectAuto(t, &Auto{URL: ls.srv.URL + "/mcp"})
			r := newChanReceiver()
			s.(pusher).Push(r, r.end)
			if err := s.Write(context.Background(), mustRequest(t, 1, "initialize")); err != nil {
				t.Fatalf("Write(initialize) = %v", err)
			}
			if name == "legacy SSE" {
				<-ls.posts
				ls.events <- message(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05"}}`)
			}
			if m, ok := r.next(t).(*jsonrpc.Response); !ok || m.ID != jsonrpc.Int64ID(1) {
				t.Fatalf("pushed %#v, want the response to initialize", m)
			}
			select {
			case err := <-r.ended:
				t.Fatalf("the connection ended before Close: %v", err)
			default:
			}
			s.Close()
			select {
			case err := <-r.ended:
				if !errors.Is(err, jsonrpc.ErrClosed) {
					t.Errorf("ended(%v), want jsonrpc.ErrClosed", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Close did not end the pushed connection")
			}
		})
	}
}
