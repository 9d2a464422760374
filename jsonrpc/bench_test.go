package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var (
	benchRequest = &Request{
		ID:     Int64ID(42),
		Method: "tools/call",
		Params: json.RawMessage(`{"name":"echo","arguments":{"message":"hello, world"},"_meta":{"progressToken":42}}`),
	}
	benchResponseFrame = []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"Echo: hello, world"}],"isError":false}}`)
)

// BenchmarkEncodeRequest encodes a tools/call request into a reused buffer,
// the way a transport does.
func BenchmarkEncodeRequest(b *testing.B) {
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		var err error
		buf, err = AppendMessage(buf[:0], benchRequest)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkDecodeResponse decodes a typical tools/call response.
func BenchmarkDecodeResponse(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchResponseFrame)))
	for b.Loop() {
		m, err := DecodeMessage(benchResponseFrame)
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := m.(*Response); !ok {
			b.Fatalf("decoded %T", m)
		}
	}
}

// BenchmarkDecodeLargeResponse decodes the two large frames a client
// meets: a long text result (1 MB) and a tools/list of 1,000 tools.
func BenchmarkDecodeLargeResponse(b *testing.B) {
	text := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 40000) + `"}]}}`
	var list strings.Builder
	list.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := range 1000 {
		if i > 0 {
			list.WriteByte(',')
		}
		fmt.Fprintf(&list, `{"name":"tool_%04d","description":"Tool %d of the list: reads a file below the given path.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where to start"},"recursive":{"type":"boolean"},"limit":{"type":"integer","minimum":1}},"required":["path"]}}`, i, i)
	}
	list.WriteString(`]}}`)
	for _, c := range []struct{ name, frame string }{{"text", text}, {"tools", list.String()}} {
		frame := []byte(c.frame)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if _, err := DecodeMessage(frame); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// directStream hands messages over channels without encoding them, so the
// benchmark measures the engine alone; its echo peer costs one Response.
type directStream struct {
	in     chan Message
	out    chan Message
	closed chan struct{}
}

func newDirectStream() *directStream {
	s := &directStream{in: make(chan Message, 256), out: make(chan Message, 256), closed: make(chan struct{})}
	go s.echo()
	return s
}

var benchResult = json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)

// echo plays a peer that answers every request at once.
func (s *directStream) echo() {
	for {
		select {
		case m := <-s.out:
			if r, ok := m.(*Request); ok {
				select {
				case s.in <- &Response{ID: r.ID, Result: benchResult}:
				case <-s.closed:
					return
				}
			}
		case <-s.closed:
			return
		}
	}
}

func (s *directStream) Read(ctx context.Context) (Message, error) {
	select {
	case m := <-s.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.closed:
		return nil, errMemClosed
	}
}

func (s *directStream) Write(ctx context.Context, m Message) error {
	select {
	case s.out <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closed:
		return errMemClosed
	}
}

func (s *directStream) Close() error { close(s.closed); return nil }

// codecEchoPeer answers every request on a memStream, going through the
// real codec both ways, as a transport would.
func codecEchoPeer(s *memStream) {
	var buf []byte
	for {
		select {
		case frame := <-s.out:
			m, err := DecodeMessage(frame)
			if err != nil {
				panic(err)
			}
			r, ok := m.(*Request)
			if !ok {
				continue
			}
			buf, _ = AppendMessage(buf[:0], &Response{ID: r.ID, Result: benchResult})
			select {
			case s.in <- inbound{frame: append([]byte(nil), buf...)}:
			case <-s.closed:
				return
			}
		case <-s.closed:
			return
		}
	}
}

// BenchmarkCallRoundTrip measures Call against a peer that answers at once:
// "direct" passes messages without encoding (the engine's own cost),
// "codec" encodes and decodes both ways; "parallel" runs many callers at
// once, as a client with concurrent tool calls does.
func BenchmarkCallRoundTrip(b *testing.B) {
	type callParams struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments,omitempty"`
	}
	params := &callParams{Name: "echo"}
	run := func(b *testing.B, s Stream, parallel bool) {
		c := NewConn(s, Options{})
		defer c.Close()
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		if !parallel {
			for b.Loop() {
				if _, err := c.Call(ctx, "tools/call", params, nil); err != nil {
					b.Fatal(err)
				}
			}
			return
		}
		b.SetParallelism(16)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.Call(ctx, "tools/call", params, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	b.Run("direct", func(b *testing.B) { run(b, newDirectStream(), false) })
	b.Run("direct/parallel", func(b *testing.B) { run(b, newDirectStream(), true) })
	b.Run("codec", func(b *testing.B) {
		s := newMemStream(256)
		go codecEchoPeer(s)
		run(b, s, false)
	})
	b.Run("codec/parallel", func(b *testing.B) {
		s := newMemStream(256)
		go codecEchoPeer(s)
		run(b, s, true)
	})
}

// BenchmarkDispatchRequest measures the engine answering the peer's
// requests: read, start a handler, encode nothing (directStream), write
// the response.
func BenchmarkDispatchRequest(b *testing.B) {
	s := &directStream{in: make(chan Message, 256), out: make(chan Message, 256), closed: make(chan struct{})}
	c := NewConn(s, Options{Handler: func(ctx context.Context, c *Conn, req *Request) (any, error) {
		return benchResult, nil
	}})
	defer c.Close()
	req := &Request{Method: "ping"}
	b.ReportAllocs()
	var id int64
	for b.Loop() {
		id++
		r := *req
		r.ID = Int64ID(id)
		s.in <- &r
		if m := <-s.out; m.(*Response).ID != r.ID {
			b.Fatalf("answered %v", m)
		}
	}
}

// BenchmarkDispatchNotification measures a notification's way from the
// stream to a subscriber.
func BenchmarkDispatchNotification(b *testing.B) {
	s := &directStream{in: make(chan Message, 256), out: make(chan Message, 256), closed: make(chan struct{})}
	c := NewConn(s, Options{})
	defer c.Close()
	got := make(chan struct{}, 256)
	c.Subscribe("notifications/message", func(*Notification) { got <- struct{}{} })
	n := &Notification{Method: "notifications/message", Params: json.RawMessage(`{"level":"info","data":"x"}`)}
	b.ReportAllocs()
	for b.Loop() {
		s.in <- n
		<-got
	}
}
