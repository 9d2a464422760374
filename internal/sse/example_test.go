package sse_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/internal/sse"
)

func ExampleReader() {
	stream := "id: 0\nretry: 500\ndata:\n\n" + // an MCP priming event
		": keep-alive\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}" // no closing blank line
	r := sse.NewReader(strings.NewReader(stream))
	r.SetMaxEventSize(1 << 20)
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Printf("type=%q id=%q retry=%v data=%s\n", ev.Type, ev.ID, ev.Retry, ev.Data)
	}
	fmt.Println("resume from", r.LastEventID())
	// Output:
	// type="" id="0" retry=500ms data=
	// type="message" id="" retry=0s data={"jsonrpc":"2.0","id":1,"result":{}}
	// resume from 0
}
