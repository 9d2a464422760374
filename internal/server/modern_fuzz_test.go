package server

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func FuzzDecodeHeaderValue(f *testing.F) {
	for _, seed := range []string{"us-west1", "=?base64?SGVsbG8sIOS4lueVjA==?=", "=?base64??=", "=?base64?***?=", " padded ", "a\tb", "é", "=?base64?/w==?="} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, err := decodeHeaderValue(v)
		if err != nil {
			return
		}
		if !utf8.ValidString(got) {
			t.Errorf("decodeHeaderValue(%q) = %q, not UTF-8", v, got)
		}
		if !strings.HasPrefix(v, base64Prefix) && got != v {
			t.Errorf("plain value %q decoded to %q", v, got)
		}
	})
}

func FuzzDecodeRequestMeta(f *testing.F) {
	for _, seed := range []string{
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/logLevel":"debug"}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}`,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":[]}}`,
		`{"_meta":null}`, `[]`, `null`, `"x"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, params string) {
		m, err := decodeRequestMeta(json.RawMessage(params))
		if err != nil {
			return
		}
		if m.ClientCapabilities != nil && !json.Valid(m.ClientCapabilities) {
			t.Errorf("capabilities %q are not JSON", m.ClientCapabilities)
		}
		if m.LogLevel != "" && !strings.Contains(strings.Join(logLevels, ","), m.LogLevel) {
			t.Errorf("log level %q accepted", m.LogLevel)
		}
	})
}

func FuzzDecodeRequestState(f *testing.F) {
	f.Add(encodeRequestState(requestState{Method: "tools/call", Name: "elicit", Pending: []string{"mcptest-1"}}))
	f.Add(encodeRequestState(requestState{Method: "prompts/get", Name: "elicit"}))
	f.Add(encodeRequestState(requestState{Method: "tools/call", Name: "elicit",
		Answers:   map[string]json.RawMessage{"mcptest-1": json.RawMessage(`{"roots":[]}`), "mcptest-2": json.RawMessage(`{"action":"accept"}`)},
		Questions: map[string]string{"mcptest-1": questionDigest("roots/list", nil), "mcptest-2": "x"}, Pending: []string{"mcptest-3"}}))
	f.Add("%%%")
	f.Add("bnVsbA")
	f.Fuzz(func(t *testing.T, state string) {
		st, err := decodeRequestState(state, "tools/call", "elicit")
		if err == nil && (st.Method != "tools/call" || st.Name != "elicit") {
			t.Errorf("state of %s %q accepted for tools/call elicit", st.Method, st.Name)
		}
		if err != nil {
			return
		}
		// A round on the client's state: answers are handed out, or a
		// question asked under a key no earlier round used, never a panic
		// or an endless search for a key.
		r := &inputRound{answers: map[string]json.RawMessage{}, questions: map[string]string{}, used: map[string]bool{}, asked: map[string]inputRequest{},
			caps: map[string]json.RawMessage{"roots": nil, "elicitation": nil}}
		maps.Copy(r.answers, st.Answers)
		maps.Copy(r.questions, st.Questions)
		for _, method := range []string{"roots/list", "elicitation/create", "roots/list"} {
			if _, err := r.call(method, nil); err != nil && !errors.Is(err, ErrInputRequired) {
				t.Fatalf("%s: %v", method, err)
			}
		}
		for key := range r.asked {
			if _, answered := st.Answers[key]; answered {
				t.Errorf("asked again under %s, which an earlier round answered", key)
			}
		}
	})
}

// FuzzModernStdio feeds arbitrary lines to a connection that has not sent
// initialize (so modern requests are served) and checks that the server
// neither panics nor stops answering.
func FuzzModernStdio(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}},"name":"elicit","requestState":"e30","inputResponses":{"mcptest-1":{"action":"accept"}}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"toolsListChanged":"yes"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":3},"uri":"x"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		c, _ := pipeClient(t, NewDefault(&Options{Eras: ModernOnly}))
		id := jsonrpc.StringID("fuzz-discover")
		sent := c.sendLines(input, &jsonrpc.Request{ID: id, Method: "server/discover", Params: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)})
		for {
			m, ok := c.next()
			if !ok {
				t.Fatalf("stream ended before discover was answered; frames: %s", c.excerpt())
			}
			if r, isResp := m.(*jsonrpc.Response); isResp && r.ID == id {
				if r.Error != nil {
					t.Errorf("discover failed after the input: %v", r.Error)
				}
				<-sent
				return
			}
		}
	})
}

// FuzzModernHTTP sends an arbitrary body and arbitrary mirrored headers to
// a modern-only Streamable HTTP handler and checks that every answer has a
// status the revision allows.
func FuzzModernHTTP(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","arguments":{"message":"x"}}}`, "2026-07-28", "tools/call", "echo", "")
	f.Add(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"é"}}`, "2026-07-28", "resources/read", "=?base64?w6k=?=", "")
	f.Add(`{"jsonrpc":"2.0","id":3,"method":"nope","params":{}}`, "2026-07-28", "nope", "", "=?base64?")
	f.Add(`{"jsonrpc":"2.0","method":"notifications/cancelled"}`, "", "", "", "")
	f.Add(`{"jsonrpc":"2.0","id":4,"result":{}}`, "2026-07-28", "", "", "")
	f.Fuzz(func(t *testing.T, body, version, method, name, param string) {
		h := NewDefault(&Options{Eras: ModernOnly}).StreamableHTTPHandler(nil)
		defer h.Close()
		// A reply can legitimately last (listen, a slow call): bound it.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/mcp", strings.NewReader(body))
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Content-Type", "application/json")
		for k, v := range map[string]string{"MCP-Protocol-Version": version, "Mcp-Method": method, "Mcp-Name": name, "Mcp-Param-Region": param} {
			if v != "" && !strings.ContainsAny(v, "\r\n") {
				r.Header.Set(k, v)
			}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case 200, 202, 400, 404:
		default:
			t.Errorf("status %d for %q", w.Code, body)
		}
		if w.Header().Get("Mcp-Session-Id") != "" {
			t.Errorf("a modern reply carries a session id")
		}
	})
}
