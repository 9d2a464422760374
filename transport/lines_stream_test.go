package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// readerCloser is the reading half of an io.Pipe with its writer, so a
// test can feed a stream raw bytes.
func feedStream(t *testing.T, input string) jsonrpc.Stream {
	t.Helper()
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, input)
		pw.Close()
	}()
	s := NewStream(pr, io.Discard, pr)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStreamDecodesLinesBatchesAndBadFrames(t *testing.T) {
	input := `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\r\n" +
		"\n" +
		`not json` + "\n" +
		`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"1.0","id":2,"result":{}},{"jsonrpc":"2.0","id":"x","method":"ping"}]` + "\n" +
		`{"jsonrpc":"2.0","id":3,"result":{"ok":true}}`
	s := feedStream(t, input)
	ctx := context.Background()

	expectMsg := func(check func(jsonrpc.Message) bool, what string) {
		t.Helper()
		m, err := s.Read(ctx)
		if err != nil || !check(m) {
			t.Fatalf("want %s, got %#v, %v", what, m, err)
		}
	}
	expectDecodeErr := func(substr string) {
		t.Helper()
		m, err := s.Read(ctx)
		if !jsonrpc.IsDecodeError(err) || m != nil || !strings.Contains(err.Error(), substr) {
			t.Fatalf("want a decode error containing %q, got %#v, %v", substr, m, err)
		}
	}
	expectMsg(func(m jsonrpc.Message) bool {
		n, ok := m.(*jsonrpc.Notification)
		return ok && n.Method == "notifications/initialized"
	}, "the initialized notification")
	expectDecodeErr("not json")
	expectMsg(func(m jsonrpc.Message) bool {
		r, ok := m.(*jsonrpc.Response)
		return ok && r.ID == jsonrpc.Int64ID(1)
	}, "response 1 of the batch")
	expectMsg(func(m jsonrpc.Message) bool {
		r, ok := m.(*jsonrpc.Request)
		return ok && r.ID == jsonrpc.StringID("x") && r.Method == "ping"
	}, "request x of the batch")
	expectDecodeErr("batch item 1")
	expectMsg(func(m jsonrpc.Message) bool {
		r, ok := m.(*jsonrpc.Response)
		return ok && r.ID == jsonrpc.Int64ID(3) && string(r.Result) == `{"ok":true}`
	}, "response 3")
	for range 2 {
		_, err := s.Read(ctx)
		if !errors.Is(err, io.EOF) || jsonrpc.IsDecodeError(err) {
			t.Fatalf("at the end: %v, want a terminal error wrapping io.EOF", err)
		}
	}
}

func TestStreamMaxFrameSizeIsADecodeErrorAndGoesOn(t *testing.T) {
	pr, pw := io.Pipe()
	s := newLineStream(pr, io.Discard, lineStreamConfig{maxFrameSize: 64, close: pr.Close})
	defer s.Close()
	big := `{"jsonrpc":"2.0","method":"big","params":{"p":"` + strings.Repeat("x", 100_000) + `"}}`
	go func() {
		io.WriteString(pw, `{"jsonrpc":"2.0","method":"a"}`+"\n")
		io.WriteString(pw, big+"\n")
		io.WriteString(pw, `{"jsonrpc":"2.0","method":"b"}`+"\n")
		pw.Close()
	}()
	ctx := context.Background()
	if m, err := s.Read(ctx); err != nil || m.(*jsonrpc.Notification).Method != "a" {
		t.Fatalf("first: %v %v", m, err)
	}
	_, err := s.Read(ctx)
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "64 bytes") || !strings.Contains(err.Error(), fmt.Sprintf("%d bytes", len(big))) {
		t.Fatalf("oversized: %v, want a decode error naming limit and size", err)
	}
	if m, err := s.Read(ctx); err != nil || m.(*jsonrpc.Notification).Method != "b" {
		t.Fatalf("after oversized: %v %v", m, err)
	}
}

func TestStreamReadHonoursContext(t *testing.T) {
	pr, _ := io.Pipe()
	s := NewStream(pr, io.Discard, pr)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Read(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestStreamWritesCompactLines(t *testing.T) {
	pr, pw := io.Pipe()
	s := NewStream(strings.NewReader(""), pw, pw)
	defer s.Close()
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(7), Method: "tools/call", Params: json.RawMessage("{\n  \"name\": \"x\"\n}")}
	go s.Write(context.Background(), req)
	line := make([]byte, 0, 128)
	one := make([]byte, 1)
	for {
		if _, err := pr.Read(one); err != nil {
			t.Fatal(err)
		}
		if one[0] == '\n' {
			break
		}
		line = append(line, one[0])
	}
	if want := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`; string(line) != want {
		t.Fatalf("wrote %s, want %s", line, want)
	}
}

func TestStreamWriteEncodeErrorLeavesStreamUsable(t *testing.T) {
	var buf bytes.Buffer
	s := NewStream(strings.NewReader(""), &buf, nil)
	defer s.Close()
	if err := s.Write(context.Background(), &jsonrpc.Request{Method: "x"}); err == nil {
		t.Fatal("request without id was written")
	}
	if err := s.Write(context.Background(), &jsonrpc.Notification{Method: "y"}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != `{"jsonrpc":"2.0","method":"y"}`+"\n" {
		t.Fatalf("wrote %q", got)
	}
}

func TestStreamCloseUnblocksAndIsIdempotent(t *testing.T) {
	pr, pw := io.Pipe() // the writer side is never read: writes block
	ir, _ := io.Pipe()  // the reader side never delivers
	s := NewStream(ir, pw, closers{ir, pr, pw})
	readDone := make(chan error)
	go func() {
		_, err := s.Read(context.Background())
		readDone <- err
	}()
	writeDone := make(chan error)
	go func() { writeDone <- s.Write(context.Background(), &jsonrpc.Notification{Method: "n"}) }()
	closeDone := make(chan error)
	for range 3 {
		go func() { closeDone <- s.Close() }()
	}
	for range 3 {
		if err := <-closeDone; err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if err := <-readDone; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Read after Close: %v, want ErrClosed", err)
	}
	if err := <-writeDone; !errors.Is(err, jsonrpc.ErrClosed) && !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("Write during Close: %v", err)
	}
	if err := s.Write(context.Background(), &jsonrpc.Notification{Method: "n"}); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Write after Close: %v, want ErrClosed", err)
	}
	if _, err := s.Read(context.Background()); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Read after Close: %v, want ErrClosed", err)
	}
}

func TestStreamAbandonedWriteKeepsTheStream(t *testing.T) {
	pr, pw := io.Pipe()
	ir, _ := io.Pipe()
	s := NewStream(ir, pw, closers{ir, pr, pw})
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Write(ctx, &jsonrpc.Notification{Method: "stuck"}) }()
	one := make([]byte, 1)
	if _, err := io.ReadFull(pr, one); err != nil { // the write has begun
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Write: %v, want context.Canceled", err)
	}
	// The abandoned line still arrives whole, and the next one after it.
	next := make(chan error, 1)
	go func() { next <- s.Write(context.Background(), &jsonrpc.Notification{Method: "next"}) }()
	r := bufio.NewReader(io.MultiReader(bytes.NewReader(one), pr))
	for _, want := range []string{`{"jsonrpc":"2.0","method":"stuck"}`, `{"jsonrpc":"2.0","method":"next"}`} {
		line, err := r.ReadString('\n')
		if err != nil || strings.TrimSuffix(line, "\n") != want {
			t.Fatalf("peer read %q (%v), want %s", line, err, want)
		}
	}
	if err := <-next; err != nil {
		t.Fatalf("Write after the abandoned one: %v", err)
	}
}

type closers []io.Closer

func (cs closers) Close() error {
	for _, c := range cs {
		c.Close()
	}
	return nil
}
