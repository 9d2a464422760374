package mcptest_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A modern-only server speaks 2026-07-28: no initialize, the version and
// capabilities travel in every request's _meta, and a tool that asks the
// client for input answers input_required until the retry carries it.
func ExampleEras() {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	defer srv.Close()
	stream, err := srv.Transport().Connect(context.Background())
	if err != nil {
		panic(err)
	}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{})
	defer conn.Close()
	ctx := context.Background()
	meta := map[string]any{
		mcptest.MetaProtocolVersion:    mcptest.ModernProtocolVersion,
		mcptest.MetaClientCapabilities: map[string]any{"elicitation": map[string]any{}},
	}
	raw, err := conn.Call(ctx, "server/discover", map[string]any{"_meta": meta}, nil)
	if err != nil {
		panic(err)
	}
	var d struct{ SupportedVersions []string }
	_ = json.Unmarshal(raw, &d)
	fmt.Println("versions:", d.SupportedVersions)

	call := map[string]any{"_meta": meta, "name": "elicit"}
	raw, err = conn.Call(ctx, "tools/call", call, nil)
	if err != nil {
		panic(err)
	}
	var ask struct {
		ResultType    string
		InputRequests map[string]struct{ Method string }
		RequestState  string
	}
	_ = json.Unmarshal(raw, &ask)
	fmt.Println(ask.ResultType, ask.InputRequests["mcptest-1"].Method)

	call["requestState"] = ask.RequestState
	call["inputResponses"] = map[string]any{"mcptest-1": map[string]any{"action": "accept", "content": map[string]string{"name": "ada"}}}
	raw, err = conn.Call(ctx, "tools/call", call, nil)
	if err != nil {
		panic(err)
	}
	var done struct{ ResultType, StructuredContent json.RawMessage }
	_ = json.Unmarshal(raw, &done)
	fmt.Printf("%s %s\n", done.ResultType, done.StructuredContent)
	// Output:
	// versions: [2026-07-28]
	// input_required elicitation/create
	// "complete" {"action":"accept","content":{"name":"ada"}}
}
