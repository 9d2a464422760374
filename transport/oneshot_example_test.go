package transport_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

func ExampleCallHTTP() {
	// A stateless server that answers over SSE, with a notification first.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "id: 0\nretry: 1000\ndata:\n\n")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n")
	}))
	defer srv.Close()

	req, _ := jsonrpc.NewRequest(jsonrpc.Int64ID(1), "tools/list", nil)
	resp, err := transport.CallHTTP(context.Background(), srv.URL+"/mcp", req, &transport.OneShotOptions{
		Headers: http.Header{"Authorization": {"Bearer <token>"}},
	})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(resp.ID, string(resp.Result))
	// Output: 1 {"tools":[]}
}
