package transport

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// echoMCPServer answers every POSTed request with an empty result under
// its id (initialize with a session), 202 to everything else, optionally
// gzip-compressed when the client asks for it. seen gets every request
// first and may add reply headers.
func echoMCPServer(t *testing.T, gzipped bool, seen func(w http.ResponseWriter, r *http.Request)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if seen != nil {
			seen(w, r)
		}
		m, err := jsonrpc.DecodeMessage(body)
		req, ok := m.(*jsonrpc.Request)
		if r.Method != http.MethodPost || err != nil || !ok {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if req.Method == methodInitialize && w.Header().Get(headerSessionID) == "" {
			w.Header().Set(headerSessionID, "s-1") // unless seen named one
		}
		out, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: []byte(`{"ok":true}`)})
		w.Header().Set("Content-Type", "application/json")
		if gzipped && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(out)
			zw.Close()
			w.Header().Set("Content-Encoding", "gzip")
			out = b.Bytes()
		}
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func streamRoundTrip(t *testing.T, s jsonrpc.Stream, id int64, method string) *jsonrpc.Response {
	t.Helper()
	ctx := context.Background()
	if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: []byte(`{}`)}); err != nil {
		t.Fatalf("Write %s: %v", method, err)
	}
	m, err := s.Read(ctx)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.ID != jsonrpc.Int64ID(id) || r.Error != nil {
		t.Fatalf("read %#v, want the result of request %d", m, id)
	}
	return r
}

// The transport asks for gzip itself and so must decode it, with its own
// pool and with a caller's client alike.
func TestHTTPGzipReplies(t *testing.T) {
	for _, custom := range []bool{false, true} {
		t.Run(fmt.Sprintf("custom client %v", custom), func(t *testing.T) {
			var askedGzip atomic.Int32
			srv := echoMCPServer(t, true, func(_ http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Accept-Encoding") == "gzip" {
					askedGzip.Add(1)
				}
			})
			cfg := &StreamableHTTP{URL: srv.URL, DisableListener: true}
			if custom {
				cfg.HTTPClient = &http.Client{}
			}
			s := httpConnect(t, cfg)
			streamRoundTrip(t, s, 1, methodInitialize)
			r := streamRoundTrip(t, s, 2, "tools/list")
			if string(r.Result) != `{"ok":true}` {
				t.Errorf("result %s", r.Result)
			}
			if askedGzip.Load() != 2 {
				t.Errorf("%d of 2 requests asked for gzip", askedGzip.Load())
			}
		})
	}
}

// A 303 turns the POST into a GET without a body, as http.Client does; the
// same origin keeps the credentials.
func TestHTTPRedirectSeeOther(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, fmt.Sprintf("%s %s body=%v type=%q auth=%q", r.Method, r.URL.Path, len(body) > 0, r.Header.Get("Content-Type"), r.Header.Get("Authorization")))
		mu.Unlock()
		if r.URL.Path == "/mcp" {
			http.Redirect(w, r, "/answer", http.StatusSeeOther)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":7,"result":{}}`)
	}))
	defer srv.Close()
	resp, err := CallHTTP(context.Background(), srv.URL+"/mcp", &jsonrpc.Request{ID: jsonrpc.Int64ID(7), Method: "ping"},
		&OneShotOptions{Headers: http.Header{"Authorization": {"Bearer t"}}})
	if err != nil {
		t.Fatalf("CallHTTP: %v", err)
	}
	if resp.ID != jsonrpc.Int64ID(7) {
		t.Errorf("response %+v", resp)
	}
	want := []string{
		`POST /mcp body=true type="application/json" auth="Bearer t"`,
		`GET /answer body=false type="" auth="Bearer t"`,
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Redirects stop after 10 requests, like http.Client's default policy.
func TestHTTPRedirectLimit(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Redirect(w, r, fmt.Sprintf("/mcp%d", n.Add(1)), http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := CallHTTP(context.Background(), srv.URL+"/mcp", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "ping"}, nil)
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Fatalf("CallHTTP = %v, want the redirect limit", err)
	}
	if got := n.Load(); got != 10 {
		t.Errorf("%d requests, want 10", got)
	}
}

// Credentials in the URL become Basic authorization, as http.Client does,
// and never appear in errors.
func TestHTTPURLUserinfo(t *testing.T) {
	var user, pass atomic.Value
	srv := echoMCPServer(t, false, func(_ http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		user.Store(u)
		pass.Store(p)
	})
	s := httpConnect(t, &StreamableHTTP{URL: strings.Replace(srv.URL, "http://", "http://ann:pa%20ss@", 1), DisableListener: true})
	streamRoundTrip(t, s, 1, methodInitialize)
	if user.Load() != "ann" || pass.Load() != "pa ss" {
		t.Errorf("Basic credentials %v:%v, want ann:pa ss", user.Load(), pass.Load())
	}
}

// A caller's client with a cookie jar gets a header of its own per
// request: the jar writes to it, and the requests share theirs otherwise.
func TestHTTPCustomClientCookieJar(t *testing.T) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var cookies []string
	srv := echoMCPServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		cookies = append(cookies, strings.Join(r.Header.Values("Cookie"), "|"))
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "c", Value: "1"})
	})
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true, HTTPClient: &http.Client{Jar: jar}})
	for i := int64(1); i <= 3; i++ {
		streamRoundTrip(t, s, i, "ping")
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"", "c=1", "c=1"}; strings.Join(cookies, ",") != strings.Join(want, ",") {
		t.Errorf("cookies sent %q, want %q", cookies, want)
	}
}

// Streams without an HTTPClient share one pool, which they give back on
// Close: the last one closes its idle connections.
func TestHTTPSharedTransportIsReleased(t *testing.T) {
	srv := echoMCPServer(t, false, nil)
	users := func() int {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		return shared.users
	}
	before := users()
	var ss []jsonrpc.Stream
	for i := range 2 {
		st, err := (&StreamableHTTP{URL: srv.URL, DisableListener: true}).Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, st)
		streamRoundTrip(t, st, int64(i+1), "ping")
	}
	if got := users(); got != before+2 {
		t.Errorf("%d users of the shared pool, want %d", got, before+2)
	}
	for _, st := range ss {
		st.Close()
		st.Close() // idempotent: released once
	}
	if got := users(); got != before {
		t.Errorf("%d users after Close, want %d", got, before)
	}
}

// A server may answer before it read the whole request. The reply is
// then in while net/http still writes the body, so the next POST must
// not reuse that request's body reader (the race detector watches).
func TestHTTPEarlyReplyWhileTheBodyIsWritten(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read just enough to find the id, then answer.
		head := make([]byte, 64)
		n, _ := io.ReadFull(r.Body, head)
		id := "0"
		if _, rest, ok := strings.Cut(string(head[:n]), `"id":`); ok {
			id, _, _ = strings.Cut(rest, ",")
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, id)
	}))
	defer srv.Close()
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	big := []byte(`{"data":"` + strings.Repeat("x", 4<<20) + `"}`)
	ctx := context.Background()
	for i := int64(1); i <= 4; i++ {
		err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(i), Method: "tools/call", Params: big})
		if err != nil {
			// The server may close the connection before the reply is
			// read; that is an error, never a wrong body.
			continue
		}
		m, err := s.Read(ctx)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if r, ok := m.(*jsonrpc.Response); !ok || r.ID != jsonrpc.Int64ID(i) {
			t.Fatalf("read %#v, want the response to %d", m, i)
		}
	}
}
