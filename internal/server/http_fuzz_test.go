package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// FuzzStreamableHTTP sends an arbitrary POST body and an arbitrary
// Last-Event-ID to a session of the Streamable HTTP handler and checks
// that every answer is a well-formed HTTP reply with a status MCP allows.
func FuzzStreamableHTTP(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}`, "1-0")
	f.Add(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, "0-0")
	f.Add(`{"jsonrpc":"2.0","id":"s","result":{}}`, "")
	f.Add(`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, "-1-2")
	f.Add(`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{}}`, "99999999999999999999-0")
	f.Fuzz(func(t *testing.T, body, lastEventID string) {
		h := NewDefault(nil).StreamableHTTPHandler(nil)
		defer h.Close()
		do := func(method, body string, hdr map[string]string) int {
			// A reply can legitimately wait forever (the listener, a
			// tool waiting for the client's sampling answer, a slow
			// call), so the harness bounds each request.
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			if method == http.MethodGet {
				cancel() // the listener never ends by itself; stop it at once
			}
			defer cancel()
			r := httptest.NewRequestWithContext(ctx, method, "/mcp", strings.NewReader(body))
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Content-Type", "application/json")
			for k, v := range hdr {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w.Code
		}
		rec := httptest.NewRecorder()
		init := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`))
		init.Header.Set("Accept", "application/json, text/event-stream")
		init.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, init)
		session := rec.Header().Get("Mcp-Session-Id")
		if rec.Code != http.StatusOK || session == "" {
			t.Fatalf("initialize: %d", rec.Code)
		}
		allowed := map[int]bool{200: true, 202: true, 400: true, 404: true}
		if code := do(http.MethodPost, body, map[string]string{"Mcp-Session-Id": session}); !allowed[code] {
			t.Errorf("POST %q: status %d", body, code)
		}
		if !strings.ContainsAny(lastEventID, "\r\n") {
			if code := do(http.MethodGet, "", map[string]string{"Mcp-Session-Id": session, "Last-Event-ID": lastEventID}); !allowed[code] && code != http.StatusConflict {
				t.Errorf("GET Last-Event-ID %q: status %d", lastEventID, code)
			}
		}
	})
}

// FuzzStreamableHTTPBatch posts an arbitrary body to a 2025-03-26 session,
// where a JSON array is a batch, with either reply mode, and checks the
// answer on the wire: a status MCP allows, 202 without a body, an error
// response as the body of a 400, and a 200 whose messages all decode (a
// JSON reply being one message, or an array of them for a batch).
func FuzzStreamableHTTPBatch(f *testing.F) {
	f.Add(`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}]`, false)
	f.Add(`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]`, true)
	f.Add(`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"r","result":{}}]`, false)
	f.Add(`[]`, true)
	f.Add(`[1,{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}]`, true)
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`, false)
	f.Add(` [{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}] `, false)
	f.Fuzz(func(t *testing.T, body string, asJSON bool) {
		h := NewDefault(nil).StreamableHTTPHandler(&HTTPOptions{JSONResponse: asJSON})
		defer h.Close()
		post := func(ctx context.Context, body, session string) *httptest.ResponseRecorder {
			r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/mcp", strings.NewReader(body))
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Content-Type", "application/json")
			if session != "" {
				r.Header.Set("Mcp-Session-Id", session)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w
		}
		init := post(context.Background(), `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`, "")
		session := init.Header().Get("Mcp-Session-Id")
		if init.Code != http.StatusOK || session == "" {
			t.Fatalf("initialize: %d", init.Code)
		}
		// A reply can wait for ever (a tool waiting on the client), so
		// the harness bounds it; what a reply cut short holds is not
		// checked.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		w := post(ctx, body, session)
		if ctx.Err() != nil {
			return
		}
		got := w.Body.Bytes()
		switch w.Code {
		case http.StatusAccepted:
			if len(got) != 0 {
				t.Fatalf("%q: 202 with a body %q", body, got)
			}
		case http.StatusBadRequest, http.StatusNotFound:
			if m, err := jsonrpc.DecodeMessage(got); err != nil || !isErrorResponse(m) {
				t.Fatalf("%q: %d with body %q, not an error response (%v)", body, w.Code, got, err)
			}
		case http.StatusOK:
			if w.Header().Get("Content-Type") == "application/json" {
				if _, err := jsonrpc.DecodeFrame(got); err != nil {
					t.Fatalf("%q: JSON reply %q: %v", body, got, err)
				}
				return
			}
			r := sse.NewReader(bytes.NewReader(got))
			for {
				ev, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("%q: reply stream %q: %v", body, got, err)
				}
				if len(ev.Data) == 0 {
					continue
				}
				if _, err := jsonrpc.DecodeMessage(ev.Data); err != nil {
					t.Fatalf("%q: event %q: %v", body, ev.Data, err)
				}
			}
		default:
			t.Fatalf("%q: status %d", body, w.Code)
		}
	})
}

func isErrorResponse(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Response)
	return ok && r.Error != nil
}
