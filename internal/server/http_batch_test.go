package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// batchModes are the two ways a reply can come, each tested for batches.
var batchModes = []struct {
	name string
	opts *HTTPOptions
}{
	{"event stream", nil},
	{"JSON", &HTTPOptions{JSONResponse: true}},
}

// batchSession serves the default server over loopback HTTP under opts and
// opens a session of protocol version on it.
func batchSession(t *testing.T, opts *HTTPOptions, version string) (*httpClient, *HTTPServer) {
	t.Helper()
	hs := NewHTTPServer(t, NewDefault(nil), opts)
	c := newHTTPClient(t, hs)
	c.initialize(version)
	return c, hs
}

// replyMessages reads a 200 reply of either kind: the events' messages,
// or the JSON body's (the array of a batch, else one message), and fails
// unless the body is of the kind asJSON says.
func replyMessages(t *testing.T, resp *http.Response, asJSON, batch bool) []jsonrpc.Message {
	t.Helper()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", resp.StatusCode, readAll(resp))
	}
	if !asJSON {
		return messages(t, allEvents(t, resp))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	body := readAll(resp)
	if batch != strings.HasPrefix(body, "[") {
		t.Fatalf("JSON reply %q: an array is the reply to a batch, and only to one", body)
	}
	msgs, err := jsonrpc.DecodeFrame([]byte(body))
	if err != nil {
		t.Fatalf("JSON reply %q: %v", body, err)
	}
	return msgs
}

// onlyResponses fails unless every message is a response and returns them
// by id (the id-less one under the zero ID).
func onlyResponses(t *testing.T, msgs []jsonrpc.Message) map[jsonrpc.ID]*jsonrpc.Response {
	t.Helper()
	out := map[jsonrpc.ID]*jsonrpc.Response{}
	for _, m := range msgs {
		r, ok := m.(*jsonrpc.Response)
		if !ok {
			t.Fatalf("the reply holds %#v, not only responses", m)
		}
		if _, dup := out[r.ID]; dup {
			t.Fatalf("two responses to %s", r.ID)
		}
		out[r.ID] = r
	}
	return out
}

// A 2025-03-26 session takes a batch of requests and notifications and
// answers every request on the POST's reply, an event each or a JSON
// array, whichever the server answers with.
func TestHTTPBatchOfRequests(t *testing.T) {
	for _, mode := range batchModes {
		t.Run(mode.name, func(t *testing.T) {
			c, _ := batchSession(t, mode.opts, "2025-03-26")
			resp := c.do(http.MethodPost, `[{"jsonrpc":"2.0","id":5,"method":"ping"},`+
				`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}},`+
				`{"jsonrpc":"2.0","id":"six","method":"tools/call","params":{"name":"echo","arguments":{"message":"batched"}}}]`, nil)
			if got := resp.Header.Get("Mcp-Session-Id"); got != c.session {
				t.Errorf("Mcp-Session-Id %q, want the session's %q", got, c.session)
			}
			byID := onlyResponses(t, replyMessages(t, resp, mode.opts != nil, true))
			if len(byID) != 2 {
				t.Fatalf("%d responses, want 2: %v", len(byID), byID)
			}
			if r := byID[jsonrpc.Int64ID(5)]; r == nil || r.Error != nil || string(r.Result) != "{}" {
				t.Errorf("ping: %#v", r)
			}
			if r := byID[jsonrpc.StringID("six")]; r == nil || r.Error != nil || decodeToolResult(t, r.Result).text() != "batched" {
				t.Errorf("echo: %#v", r)
			}
			// The session goes on with single messages.
			resp, id := c.post("ping", nil)
			if r := responseTo(t, replyMessages(t, resp, mode.opts != nil, false), id); r.Error != nil {
				t.Errorf("ping after the batch: %v", r.Error)
			}
		})
	}
}

// A batch of notifications and responses only is accepted with 202 and no
// body, and its messages reach the session.
func TestHTTPBatchWithoutRequests(t *testing.T) {
	for _, mode := range batchModes {
		t.Run(mode.name, func(t *testing.T) {
			c, hs := batchSession(t, mode.opts, "2025-03-26")
			resp := c.do(http.MethodPost, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":"stray","result":{}}]`, nil)
			if body := readAll(resp); resp.StatusCode != http.StatusAccepted || body != "" {
				t.Fatalf("status %d, body %q; want 202 without a body", resp.StatusCode, body)
			}
			ss := hs.Streamable.srv.Sessions()[0]
			if _, err := ss.WaitReceived(t.Context(), "notifications/roots/list_changed"); err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(ss.Problems(), func(err error) bool { return strings.Contains(err.Error(), "stray") }) {
				t.Errorf("the batched response did not reach the session: problems %v", ss.Problems())
			}
		})
	}
}

// An empty array is JSON-RPC's Invalid Request, in a session or without.
func TestHTTPBatchEmpty(t *testing.T) {
	c, _ := batchSession(t, nil, "2025-03-26")
	for _, session := range []string{c.session, ""} {
		resp := c.do(http.MethodPost, `[]`, map[string]string{"Mcp-Session-Id": session})
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("session %q: status %d, want 400", session, resp.StatusCode)
		}
		if e := jsonrpcErrorBody(t, resp); e.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("session %q: error %v, want %d", session, e, jsonrpc.CodeInvalidRequest)
		}
	}
}

// Sessions of later versions refuse batches, saying which version removed
// them, and run none of the batch.
func TestHTTPBatchRefusedAfter20250326(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			c, hs := batchSession(t, nil, version)
			resp := c.do(http.MethodPost, `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, nil)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", resp.StatusCode)
			}
			e := jsonrpcErrorBody(t, resp)
			if e.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Message, "2025-06-18 removed them") || !strings.Contains(e.Message, "speaks "+version) {
				t.Errorf("error %v, want -32600 saying 2025-06-18 removed batches and naming %s", e, version)
			}
			for _, m := range hs.Streamable.srv.Sessions()[0].Received() {
				if methodOf(m) == "ping" {
					t.Errorf("the refused batch's ping reached the session")
				}
			}
		})
	}
}

// Items that are not messages get one id-less Invalid Request with the
// batch's reply; the valid ones are served.
func TestHTTPBatchWithBadItems(t *testing.T) {
	for _, mode := range batchModes {
		t.Run(mode.name, func(t *testing.T) {
			c, _ := batchSession(t, mode.opts, "2025-03-26")
			resp := c.do(http.MethodPost, `[{"jsonrpc":"2.0","id":5,"method":"ping"},3]`, nil)
			byID := onlyResponses(t, replyMessages(t, resp, mode.opts != nil, true))
			if r := byID[jsonrpc.Int64ID(5)]; r == nil || r.Error != nil {
				t.Errorf("ping: %#v", r)
			}
			if r := byID[jsonrpc.ID{}]; r == nil || r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(r.Error.Message, "batch item 1") {
				t.Errorf("the bad item's answer: %#v, want an id-less -32600 naming item 1", r)
			}
		})
	}
	// Without a request to reply to, the error is the body of a 400.
	c, _ := batchSession(t, nil, "2025-03-26")
	resp := c.do(http.MethodPost, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},"x"]`, nil)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("notifications with a bad item: status %d, want 400", resp.StatusCode)
	}
	if e := jsonrpcErrorBody(t, resp); e.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("notifications with a bad item: error %v", e)
	}
}

// Two requests of one batch under one id could not both be answered.
func TestHTTPBatchDuplicateIDs(t *testing.T) {
	c, _ := batchSession(t, nil, "2025-03-26")
	resp := c.do(http.MethodPost, `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`, nil)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", resp.StatusCode)
	}
	if e := jsonrpcErrorBody(t, resp); e.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Message, "same id") {
		t.Errorf("error %v", e)
	}
}

// A batch needs a session: without one, or on a stateless server, it is
// refused.
func TestHTTPBatchNeedsASession(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`
	stateless := newHTTPClient(t, NewHTTPServer(t, NewDefault(nil), &HTTPOptions{Stateless: true}))
	resp := stateless.do(http.MethodPost, batch, nil)
	if e := jsonrpcErrorBody(t, resp); resp.StatusCode != http.StatusBadRequest || !strings.Contains(e.Message, "keeps no sessions") {
		t.Errorf("stateless: %d %v", resp.StatusCode, e)
	}
	none := newHTTPClient(t, NewHTTPServer(t, NewDefault(nil), nil))
	resp = none.do(http.MethodPost, batch, nil)
	if e := jsonrpcErrorBody(t, resp); resp.StatusCode != http.StatusBadRequest || !strings.Contains(e.Message, "Mcp-Session-Id") {
		t.Errorf("no session: %d %v", resp.StatusCode, e)
	}
}
