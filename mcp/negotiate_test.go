package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// These tests take every path of the era negotiation (ProtocolVersion ""
// and ProtocolAuto) against servers of either era and servers that answer
// the probe in odd ways.

// autoTransport is a pipe to srv that names a server for the era memo
// and counts the probes sent through it.
type autoTransport struct {
	srv *mcptest.Server
	key string

	mu     sync.Mutex
	probes int
}

func (a *autoTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	s, err := a.srv.Transport().Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &probeCounter{Stream: s, a: a}, nil
}

func (a *autoTransport) probesSent() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.probes
}

type probeCounter struct {
	jsonrpc.Stream
	a *autoTransport
}

func (p *probeCounter) Write(ctx context.Context, m jsonrpc.Message) error {
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == MethodServerDiscover {
		p.a.mu.Lock()
		p.a.probes++
		p.a.mu.Unlock()
	}
	return p.Stream.Write(ctx, m)
}

func (a *autoTransport) ServerIdentity() (kind, key string) { return "stdio", a.key }

// uniqueKey is a memo key no other test uses.
func uniqueKey(t *testing.T) string { return "test:" + t.Name() }

func connectAuto(t *testing.T, tr transport.Transport, opts *ClientOptions) *Client {
	t.Helper()
	c, err := Connect(t.Context(), tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// initialized reports whether a session of srv was initialized by now
// (for the checks that a modern client never sent initialize).
func initialized(srv *mcptest.Server) bool {
	for _, s := range srv.Sessions() {
		select {
		case <-s.Initialized():
			return true
		default:
		}
	}
	return false
}

// awaitInitialized waits for the newest session of srv to be initialized.
func awaitInitialized(t *testing.T, srv *mcptest.Server) bool {
	sessions := srv.Sessions()
	if len(sessions) == 0 {
		return false
	}
	select {
	case <-sessions[len(sessions)-1].Initialized():
		return true
	case <-t.Context().Done():
		return false
	}
}

func discovers(srv *mcptest.Server) int {
	n := 0
	for _, r := range srv.ModernRequests() {
		if r.Method == MethodServerDiscover {
			n++
		}
	}
	return n
}

func TestAutoModernOnly(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c := connectAuto(t, &autoTransport{srv: srv, key: uniqueKey(t)}, &ClientOptions{ClientInfo: Implementation{Name: "tester", Version: "2"}})
	if !c.Modern() || c.ProtocolVersion() != ModernProtocolVersion || !slices.Equal(c.ServerVersions(), []string{ModernProtocolVersion}) {
		t.Fatalf("Modern %v, version %q, server versions %q", c.Modern(), c.ProtocolVersion(), c.ServerVersions())
	}
	exerciseModern(t, c, srv.ModernRequests)
}

func TestAutoBothErasChoosesModern(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	c := connectAuto(t, &autoTransport{srv: srv, key: uniqueKey(t)}, &ClientOptions{ProtocolVersion: ProtocolAuto})
	if !c.Modern() || initialized(srv) {
		t.Fatalf("Modern %v, initialized %v", c.Modern(), initialized(srv))
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestAutoLegacyOnly(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	c := connectAuto(t, &autoTransport{srv: srv, key: uniqueKey(t)}, nil)
	if c.Modern() || c.ProtocolVersion() != LatestLegacyProtocolVersion || c.ServerVersions() != nil || !awaitInitialized(t, srv) {
		t.Fatalf("Modern %v, version %q, initialized %v", c.Modern(), c.ProtocolVersion(), initialized(srv))
	}
	if _, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "hi"}, nil); err != nil {
		t.Fatal(err)
	}
}

// A legacy server that drops server/discover without a word: initialize
// goes out after the probe's bound and decides.
func TestAutoLegacySilentProbe(t *testing.T) {
	setProbeBound(t, time.Millisecond)
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: MethodServerDiscover})
	c := connectAuto(t, &autoTransport{srv: srv, key: uniqueKey(t)}, nil)
	if c.Modern() || !awaitInitialized(t, srv) {
		t.Fatalf("Modern %v", c.Modern())
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// The same server under a Timeout shorter than the bound: the probe runs
// out of its own deadline before the bound would send initialize, and
// initialize still decides, as it would after the bound. A server that
// answers neither fails on initialize's deadline, naming the probe too.
func TestAutoLegacySilentProbeUnderShortTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		setProbeBound(t, time.Hour)
		srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: MethodServerDiscover})
		start := time.Now()
		c, err := Connect(t.Context(), &autoTransport{srv: srv, key: uniqueKey(t)}, &ClientOptions{Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		if c.Modern() || time.Since(start) != 100*time.Millisecond {
			t.Errorf("Modern %v after %v; want the legacy era once the probe's 100ms ran out", c.Modern(), time.Since(start))
		}
		if _, err := c.ListTools(t.Context()); err != nil {
			t.Error(err)
		}
		c.Close()

		// A fault fires once: both are armed for the second server.
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: MethodServerDiscover})
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: MethodInitialize})
		_, err = Connect(t.Context(), &autoTransport{srv: srv, key: uniqueKey(t) + "/silent"}, &ClientOptions{Timeout: 100 * time.Millisecond})
		if !errors.Is(err, jsonrpc.ErrTimeout) || !strings.Contains(err.Error(), MethodInitialize) || !strings.Contains(err.Error(), "server/discover before it") {
			t.Errorf("Connect to a server that answers neither: %v", err)
		}
		srv.Close()
		synctest.Wait()
	})
}

// A modern server slower than the bound: initialize goes out too, is
// refused, and the probe's late answer decides.
func TestAutoModernSlowerThanTheBound(t *testing.T) {
	setProbeBound(t, 0)
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c := connectAuto(t, &autoTransport{srv: srv, key: uniqueKey(t)}, nil)
	if !c.Modern() {
		t.Fatal("not modern")
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func setProbeBound(t *testing.T, d time.Duration) {
	saved := probeBound
	probeBound = d
	t.Cleanup(func() { probeBound = saved })
}

// Legacy servers answer the probe with whatever error they have: each
// one falls back to initialize, and none is keyed on one code.
func TestAutoLegacyOddErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func() (any, error)
	}{
		{"method not found", nil}, // the fake's default
		{"not initialized", func() (any, error) { return nil, &jsonrpc.Error{Code: -32000, Message: "Server not initialized"} }},
		{"invalid request", func() (any, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "initialize first"}
		}},
		{"-32022 without a version list", func() (any, error) { return nil, &jsonrpc.Error{Code: CodeUnsupportedProtocolVersion, Message: "odd"} }},
		{"an empty result", func() (any, error) { return json.RawMessage(`{}`), nil }},
		{"only legacy versions", func() (any, error) {
			return json.RawMessage(`{"supportedVersions":["2025-06-18"],"capabilities":{}}`), nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer(t)
			var mu sync.Mutex
			var methods []string
			s.on(MethodServerDiscover, func(context.Context, *jsonrpc.Request) (any, error) {
				mu.Lock()
				methods = append(methods, MethodServerDiscover)
				mu.Unlock()
				if tc.answer == nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
				}
				return tc.answer()
			})
			c, err := NewClient(t.Context(), s.start(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			s.nextNote(t.Context(), NotificationInitialized)
			if c.Modern() || c.ProtocolVersion() != LatestLegacyProtocolVersion || len(methods) != 1 {
				t.Fatalf("Modern %v, version %q, probes %d", c.Modern(), c.ProtocolVersion(), len(methods))
			}
		})
	}
}

// A modern refusal of the probe is not a legacy sign: the client stays
// modern and surfaces it.
func TestAutoModernErrorIsNotAFallback(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodServerDiscover, func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, &jsonrpc.Error{Code: CodeMissingClientCapability, Message: "needs elicitation"}
	})
	s.initErr = errors.New("initialize must not be sent")
	_, err := NewClient(t.Context(), s.start(), nil)
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != CodeMissingClientCapability {
		t.Fatalf("err = %v, want the -32021", err)
	}
	select {
	case <-s.initParams:
		t.Error("initialize was sent after a modern error")
	default:
	}
}

// -32022 with the server's list: retried once under the newest version
// both speak, even the one refused (the conformance suite's server does
// that), and only once.
func TestAutoUnsupportedVersionRetriedOnce(t *testing.T) {
	for _, pin := range []string{"", ModernProtocolVersion} {
		s := newFakeServer(t)
		var mu sync.Mutex
		var versions []string
		s.on(MethodServerDiscover, func(_ context.Context, req *jsonrpc.Request) (any, error) {
			var p struct {
				Meta map[string]any `json:"_meta"`
			}
			json.Unmarshal(req.Params, &p)
			mu.Lock()
			defer mu.Unlock()
			versions = append(versions, p.Meta[metaProtocolVersion].(string))
			if len(versions) == 1 {
				return nil, &jsonrpc.Error{Code: CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version",
					Data: json.RawMessage(`{"supported":["2026-07-28"],"requested":"2026-07-28"}`)}
			}
			return json.RawMessage(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`), nil
		})
		c, err := NewClient(t.Context(), s.start(), &ClientOptions{ProtocolVersion: pin})
		if err != nil {
			t.Fatalf("pin %q: %v", pin, err)
		}
		c.Close()
		if !slices.Equal(versions, []string{ModernProtocolVersion, ModernProtocolVersion}) {
			t.Errorf("pin %q: discover sent under %q", pin, versions)
		}
	}
	// A server that refuses the retry too ends it.
	s := newFakeServer(t)
	s.on(MethodServerDiscover, func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, &jsonrpc.Error{Code: CodeUnsupportedProtocolVersion, Message: "no", Data: json.RawMessage(`{"supported":["2026-07-28"]}`)}
	})
	_, err := NewClient(t.Context(), s.start(), nil)
	var vErr *ProtocolVersionError
	if !errors.As(err, &vErr) || !strings.Contains(err.Error(), MethodServerDiscover) {
		t.Fatalf("err = %v, want a ProtocolVersionError", err)
	}
}

// The second connect to a server skips what the first learned: a legacy
// server gets no probe.
func TestAutoMemoSkipsTheProbe(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	tr := &autoTransport{srv: srv, key: uniqueKey(t)}
	t.Cleanup(func() { eras.forget(tr.key) })
	connectAuto(t, tr, nil).Close()
	if v, ok := eras.get(tr.key); !ok || v != LatestLegacyProtocolVersion {
		t.Fatalf("remembered %q, %v", v, ok)
	}
	before := tr.probesSent()
	c := connectAuto(t, tr, nil)
	if c.Modern() || before != 1 || tr.probesSent() != before {
		t.Fatalf("Modern %v, probes %d then %d", c.Modern(), before, tr.probesSent())
	}
}

// A memo that went stale (the server was upgraded or downgraded) is
// negotiated afresh, not failed on.
func TestAutoStaleMemo(t *testing.T) {
	t.Run("legacy remembered, modern now", func(t *testing.T) {
		srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
		tr := &autoTransport{srv: srv, key: uniqueKey(t)}
		eras.put(tr.key, LatestLegacyProtocolVersion)
		t.Cleanup(func() { eras.forget(tr.key) })
		c := connectAuto(t, tr, nil)
		if !c.Modern() {
			t.Fatal("not modern")
		}
		if v, _ := eras.get(tr.key); v != ModernProtocolVersion {
			t.Errorf("remembered %q", v)
		}
	})
	t.Run("modern remembered, legacy now", func(t *testing.T) {
		srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
		tr := &autoTransport{srv: srv, key: uniqueKey(t)}
		eras.put(tr.key, ModernProtocolVersion)
		t.Cleanup(func() { eras.forget(tr.key) })
		c := connectAuto(t, tr, nil)
		if c.Modern() || !awaitInitialized(t, srv) {
			t.Fatal("not legacy")
		}
		if v, _ := eras.get(tr.key); v != LatestLegacyProtocolVersion {
			t.Errorf("remembered %q", v)
		}
	})
}

// A pinned client sends nothing but what its era needs.
func TestPinnedClientsDoNotProbe(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	c := connectAuto(t, &autoTransport{srv: srv, key: uniqueKey(t)}, &ClientOptions{ProtocolVersion: LatestLegacyProtocolVersion})
	if c.Modern() || discovers(srv) != 0 {
		t.Fatalf("Modern %v, %d probes", c.Modern(), discovers(srv))
	}
	srv2 := mcptest.NewDefault(nil)
	c2 := connectAuto(t, &autoTransport{srv: srv2, key: uniqueKey(t) + "2"}, modernPin)
	if !c2.Modern() || initialized(srv2) || discovers(srv2) != 1 {
		t.Fatalf("Modern %v, initialized %v, %d probes", c2.Modern(), initialized(srv2), discovers(srv2))
	}
}

// Over HTTP a 400 to the probe is read: a modern error keeps the modern
// era, an empty or unrecognised body falls back to initialize.
func TestAutoHTTPProbeRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   string
		modern bool
	}{
		{"empty body", "", false},
		{"not JSON", "Bad Request: no session", false},
		{"a legacy JSON-RPC error", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`, false},
		{"-32022 listing the version", `{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eras := mcptest.LegacyOnly
			if tc.modern {
				eras = mcptest.ModernOnly
			}
			srv := mcptest.NewDefault(&mcptest.Options{Eras: eras})
			inner := srv.StreamableHTTPHandler(nil)
			t.Cleanup(inner.Close)
			var mu sync.Mutex
			refused := false
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				mu.Lock()
				first := !refused && bytes.Contains(body, []byte(`"server/discover"`))
				refused = refused || first
				mu.Unlock()
				if first {
					if tc.body != "" && tc.body[0] == '{' {
						w.Header().Set("Content-Type", "application/json")
					}
					w.WriteHeader(http.StatusBadRequest)
					io.WriteString(w, tc.body)
					return
				}
				inner.ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			for _, tr := range []transport.Transport{&transport.StreamableHTTP{URL: ts.URL}, &transport.Auto{URL: ts.URL}} {
				mu.Lock()
				refused = false
				mu.Unlock()
				c, err := Connect(t.Context(), tr, nil)
				if err != nil {
					t.Fatalf("%T: %v", tr, err)
				}
				if c.Modern() != tc.modern {
					t.Errorf("%T: Modern %v, want %v", tr, c.Modern(), tc.modern)
				}
				if _, err := c.ListTools(t.Context()); err != nil {
					t.Errorf("%T: ListTools: %v", tr, err)
				}
				c.Close()
			}
		})
	}
}

// server-everything and other servers of the HTTP+SSE era: the probe is
// refused (404 here), Auto falls back at initialize, and the SSE
// transport is never probed.
func TestAutoHTTPLegacySSE(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	hs := mcptest.NewHTTPServer(t, srv, nil)
	mux := http.NewServeMux()
	mux.Handle("/", http.NotFoundHandler())
	mux.Handle("/sse", hs.Legacy)
	mux.Handle("/message", hs.Legacy)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	fellBack := false
	c := connectAuto(t, &transport.Auto{URL: ts.URL + "/mcp", LegacyURL: ts.URL + "/sse", OnFallback: func(error) { fellBack = true }}, nil)
	if c.Modern() || !fellBack {
		t.Fatalf("Modern %v, fell back %v", c.Modern(), fellBack)
	}
	c2 := connectAuto(t, &transport.SSE{URL: hs.SSEURL}, nil)
	if c2.Modern() {
		t.Fatal("modern over SSE")
	}
	for _, r := range hs.Requests() {
		if bytes.Contains(r.Body, []byte(MethodServerDiscover)) {
			t.Errorf("the SSE transport was probed: %s", r.Body)
		}
	}
}

// pendingStream reports the probe unread for a while, as a child that is
// still starting would, and notes when initialize is written.
type pendingStream struct {
	jsonrpc.Stream
	mu       sync.Mutex
	queries  int
	initAt   int // queries answered when initialize was written
	unreadAt int // PendingInput reports bytes for the first unreadAt queries
}

func (p *pendingStream) PendingInput() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queries++
	if p.queries <= p.unreadAt {
		return 1, true
	}
	return 0, true
}

func (p *pendingStream) Write(ctx context.Context, m jsonrpc.Message) error {
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == MethodInitialize {
		p.mu.Lock()
		p.initAt = p.queries
		p.mu.Unlock()
	}
	return p.Stream.Write(ctx, m)
}

// The probe's bound counts from when the server read the probe: a server
// still starting is not taken for a silent legacy one.
func TestAutoProbeBoundWaitsForTheServerToRead(t *testing.T) {
	setProbeBound(t, time.Millisecond)
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: MethodServerDiscover})
	stream, _ := mcptest.Connect(t, srv)
	ps := &pendingStream{Stream: stream, unreadAt: 3}
	c, err := NewClient(t.Context(), ps, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	// 3 ticks unread, 1 that sees it read and waits a bound more, 1 that
	// sends initialize.
	if c.Modern() || ps.initAt != 5 {
		t.Fatalf("Modern %v; initialize sent after %d checks, want 5", c.Modern(), ps.initAt)
	}
}
