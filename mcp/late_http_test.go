package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// largePage is a tools/list result of n tools with descriptions and
// schemas, as servers write them.
func largePage(n int) string {
	tools := make([]string, n)
	for i := range tools {
		tools[i] = fmt.Sprintf(`{"name":"tool_%04d","description":"Tool %d of a long list, with a description as servers write them.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}`, i, i)
	}
	return `{"tools":[` + strings.Join(tools, ",") + `]}`
}

// handAnswer is the response a hand-written peer writes to the request
// in body: an initialize result to initialize, else result with after
// written after it. ok is false for a notification.
func handAnswer(body []byte, result, after string) (line string, ok bool) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil || req.ID == nil {
		return "", false
	}
	if req.Method == MethodInitialize {
		result = `{"protocolVersion":"` + LatestLegacyProtocolVersion + `","capabilities":{"tools":{}},"serverInfo":{"name":"p","version":"1"}}`
		after = ""
	}
	return `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + after + `}`, true
}

// Over Streamable HTTP a large JSON reply to tools/list is checked by the
// page decoder as it reads it, as over stdio: a valid page lists every
// tool, also when the server writes a member after the result, and a
// malformed one fails the listing at once as one whose response could
// not be read, reported as the codec reports it.
func TestListToolsChecksALargeHTTPReplyItself(t *testing.T) {
	page := largePage(3000)
	for _, tc := range []struct {
		name, result, after string
		valid               bool
		// rpcError is the code of the error the listing fails with,
		// for a response that the codec reads as an error response.
		rpcError int64
	}{
		{name: "valid", result: page, valid: true},
		{name: "a member after the result", result: page, after: `,"x":{"y":"}"}`, valid: true},
		{name: "bad schema", result: strings.Replace(page, `"required":["path"]}}]}`, `"required":["path",]}}]}`, 1)},
		{name: "an error after a null result", result: "null",
			after: `,"error":{"code":-32001,"message":"` + strings.Repeat("busy ", 16<<10) + `"}`, rpcError: -32001},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					w.WriteHeader(http.StatusMethodNotAllowed)
					return
				}
				body, _ := io.ReadAll(r.Body)
				line, ok := handAnswer(body, tc.result, tc.after)
				if !ok {
					w.WriteHeader(http.StatusAccepted)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, line)
			}))
			defer ts.Close()
			reported := make(chan error, 4)
			c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: ts.URL}, &ClientOptions{
				ProtocolVersion: LatestLegacyProtocolVersion,
				ErrorHook:       func(err error) { reported <- err },
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// Checked by the codec instead, a malformed page would
			// leave the listing waiting until its deadline.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res, err := c.ListToolsPage(ctx, "")
			if tc.valid {
				if err != nil || len(res.Tools) != 3000 || res.Tools[2999].Name != "tool_2999" {
					t.Fatalf("ListToolsPage: %v", err)
				}
				return
			}
			if tc.rpcError != 0 {
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != tc.rpcError || len(reported) != 0 {
					t.Fatalf("ListToolsPage: %v; %d reported", err, len(reported))
				}
				return
			}
			checkRefusedAsTheCodec(t, err, reported, tc.result)
		})
	}
}
