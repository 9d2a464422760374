package sse

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

func BenchmarkSSEParse(b *testing.B) {
	var stream bytes.Buffer
	w := NewWriter(&stream)
	_ = w.WriteEvent(Event{ID: "0", HasID: true, Retry: 1000000, HasRetry: true})
	for i := range 100 {
		if i%10 == 0 {
			_ = w.WriteComment("keep-alive")
		}
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"log line %d with some text to make it realistic"}}`, i)
		_ = w.WriteEvent(Event{Type: "message", ID: fmt.Sprint(i + 1), HasID: true, Data: []byte(msg)})
	}
	in := stream.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	src := bytes.NewReader(in)
	for b.Loop() {
		src.Reset(in)
		r := NewReader(src)
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 101 {
			b.Fatalf("parsed %d events, want 101", n)
		}
	}
}
