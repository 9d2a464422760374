package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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
