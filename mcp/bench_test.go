package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// benchPeer answers on the server end of a pipe: initialize, and every
// tools/call with result. It is as small as a server can be, so that the
// benchmarks below measure the client.
func benchPeer(s jsonrpc.Stream, result json.RawMessage) {
	ctx := context.Background()
	for {
		m, err := s.Read(ctx)
		if err != nil {
			if jsonrpc.IsDecodeError(err) {
				continue
			}
			return
		}
		req, ok := m.(*jsonrpc.Request)
		if !ok {
			continue
		}
		res := result
		if req.Method == MethodInitialize {
			res = json.RawMessage(`{"protocolVersion":"` + LatestLegacyProtocolVersion + `","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}`)
		}
		go s.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: res})
	}
}

func benchClient(b *testing.B, result string) *Client {
	cs, ss := transport.Pipe()
	go benchPeer(ss, json.RawMessage(result))
	c, err := NewClient(context.Background(), cs, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// BenchmarkCallToolOverPipe is a whole tools/call through the client, the
// engine, the JSON-lines codec and an in-memory pipe; "parallel" runs
// many callers on one connection.
func BenchmarkCallToolOverPipe(b *testing.B) {
	args := map[string]any{"message": "hello, world"}
	const result = `{"content":[{"type":"text","text":"hello, world"}]}`
	b.Run("sequential", func(b *testing.B) {
		c := benchClient(b, result)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.CallTool(context.Background(), "echo", args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		c := benchClient(b, result)
		b.ReportAllocs()
		b.SetParallelism(32)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.CallTool(context.Background(), "echo", args, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// BenchmarkDecodeCallToolResult decodes tools/call results: a small one,
// a 1 MiB text (the one-pass path) and one with structuredContent
// (encoding/json).
func BenchmarkDecodeCallToolResult(b *testing.B) {
	for _, tc := range []struct{ name, raw string }{
		{"small", `{"content":[{"type":"text","text":"hello, world"}]}`},
		{"1MiB", `{"content":[{"type":"text","text":"` + strings.Repeat(`The quick brown fox jumps over the lazy dog.\n`, 1<<20/46) + `"}]}`},
		{"structured", `{"content":[{"type":"text","text":"{\"t\":22.5}"}],"structuredContent":{"t":22.5}}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			raw := []byte(tc.raw)
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				var r CallToolResult
				if err := decodeResult(raw, &r, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// bigTextResult is the bench's 16 MB text result, and a buffer of its size
// for each round to copy it into; b is set to report it.
func bigTextResult(b *testing.B) (raw, buf []byte) {
	line := `The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n`
	raw = []byte(`{"content":[{"type":"text","text":"` + strings.Repeat(line, 16_000_000/len(line)) + `"}]}`)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	return raw, make([]byte, len(raw))
}

// BenchmarkDecodeTextResultInPlace decodes a 16 MB text result in place,
// as the client does a result the codec checked: a text of 87-byte lines
// with a \n escape each, as the bench's big result. Each round first
// copies the result back into the buffer, which the decoding changed.
func BenchmarkDecodeTextResultInPlace(b *testing.B) {
	raw, buf := bigTextResult(b)
	for b.Loop() {
		copy(buf, raw)
		var r CallToolResult
		if err := decodeResult(buf, &r, true); err != nil || len(r.Content) != 1 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeUncheckedTextResult is BenchmarkDecodeTextResultInPlace
// for a result the codec left unchecked, as a large legacy tools/call
// result read from a stdio server is: the decoding checks the text too.
func BenchmarkDecodeUncheckedTextResult(b *testing.B) {
	raw, buf := bigTextResult(b)
	for b.Loop() {
		copy(buf, raw)
		var r CallToolResult
		if done, err := decodeUnchecked(buf, &r); !done || err != nil || len(r.Content) != 1 {
			b.Fatal(done, err)
		}
	}
}

// BenchmarkCallToolLarge is a whole tools/call whose result is the
// bench's 16 MB text (a \n escape every 87 bytes), read from an OS pipe
// in turns, as a stdio server's output is; the peer is in process.
func BenchmarkCallToolLarge(b *testing.B) {
	line := `The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n`
	result := `{"content":[{"type":"text","text":"` + strings.Repeat(line, 16_000_000/len(line)) + `"}]}`
	cs, ss := osPipes(b)
	go benchPeer(ss, json.RawMessage(result))
	c, err := NewClient(context.Background(), cs, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	b.SetBytes(int64(len(result)))
	for b.Loop() {
		if _, err := c.CallTool(context.Background(), "big", nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeToolsList decodes a page of 1,000 tools, shaped like the
// bench's canned server's, by the route ListTools takes and, for the
// comparison in one run, by encoding/json alone.
func BenchmarkDecodeToolsList(b *testing.B) {
	var page strings.Builder
	page.WriteString(`{"tools":[`)
	for i := range 1000 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"name":"tool_%04d","description":"Tool %d of the list: reads a file below the given path.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where to start"},"recursive":{"type":"boolean"},"limit":{"type":"integer","minimum":1}},"required":["path"]}}`, i, i)
	}
	page.WriteString(`]}`)
	raw := []byte(page.String())
	for _, route := range []struct {
		name   string
		decode func([]byte, any) error
	}{
		{"decodeResult", func(raw []byte, out any) error { return decodeResult(raw, out, false) }},
		{"decodeResult-checked", func(raw []byte, out any) error { return decodeResult(raw, out, true) }},
		{"encoding-json", json.Unmarshal},
	} {
		b.Run(route.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				var res ListToolsResult
				if err := route.decode(raw, &res); err != nil || len(res.Tools) != 1000 {
					b.Fatal(err, len(res.Tools))
				}
			}
		})
	}
}
