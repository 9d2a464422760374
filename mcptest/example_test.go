package mcptest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A client connects in process with Server.Transport; here the bare
// JSON-RPC engine plays the client.
func ExampleServer_Transport() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	stream, err := srv.Transport().Connect(context.Background())
	if err != nil {
		panic(err)
	}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{})
	defer conn.Close()
	ctx := context.Background()
	if _, err := conn.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "example", "version": "1"},
	}, nil); err != nil {
		panic(err)
	}
	_ = conn.Notify(ctx, "notifications/initialized", nil)
	raw, err := conn.Call(ctx, "tools/call", map[string]any{"name": "add", "arguments": map[string]int{"a": 2, "b": 3}}, nil)
	if err != nil {
		panic(err)
	}
	var res struct {
		StructuredContent struct{ Sum float64 } `json:"structuredContent"`
	}
	_ = json.Unmarshal(raw, &res)
	fmt.Println("sum:", res.StructuredContent.Sum)
	// Output: sum: 5
}

// Tools are plain functions; a handler reaches the client through the
// request's Session.
func ExampleServer_AddTool() {
	srv := mcptest.NewServer(&mcptest.Options{Name: "weather"})
	srv.AddTool(mcptest.Tool{
		Name:        "forecast",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`),
	}, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		var args struct{ City string }
		if err := req.Bind(&args); err != nil {
			return mcptest.ErrorResult("bad arguments: " + err.Error()), nil
		}
		_ = req.Progress(ctx, 1, 1, "looked outside")
		return mcptest.TextResult("sunny in " + args.City), nil
	})
	fmt.Println(len(srv.Sessions()), "sessions before anyone connects")
	// Output: 0 sessions before anyone connects
}

// Faults are written as KIND[:TARGET][=SIZE][*], the same syntax as the
// MCPTEST_FAULTS variable of a child process.
func ExampleParseFaults() {
	faults, err := mcptest.ParseFaults("never-answer:tools/list,flood-stderr=1MiB,duplicate-response:ping*")
	if err != nil {
		panic(err)
	}
	for _, f := range faults {
		fmt.Printf("%s target=%q size=%d sticky=%v\n", f.Kind, f.Target, f.Size, f.Sticky)
	}
	// Output:
	// never-answer target="tools/list" size=0 sticky=false
	// flood-stderr target="" size=1048576 sticky=false
	// duplicate-response target="ping" size=0 sticky=true
}

// Over Streamable HTTP the server is an http.Handler; tests usually get
// one on loopback with NewHTTPServer, which also mounts the legacy
// HTTP+SSE transport.
func ExampleServer_StreamableHTTPHandler() {
	h := mcptest.NewDefault(nil).StreamableHTTPHandler(&mcptest.HTTPOptions{JSONResponse: true})
	defer h.Close()
	ts := httptest.NewServer(h)
	defer ts.Close()

	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Mcp-Session-Id") != "")
	fmt.Println(h.Requests()[0].Method)
	// Output:
	// 200 application/json true
	// POST
}
