package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestPipeRoundTrip(t *testing.T) {
	client, server := Pipe()
	defer client.Close()
	ctx := context.Background()
	go func() {
		for {
			m, err := server.Read(ctx)
			if err != nil {
				return
			}
			req := m.(*jsonrpc.Request)
			resp := &jsonrpc.Response{ID: req.ID, Result: req.Params}
			if err := server.Write(ctx, resp); err != nil {
				return
			}
		}
	}()
	big := fmt.Sprintf(`{"blob":%q}`, bytes.Repeat([]byte("b"), 1<<20))
	for i, params := range []string{`{"a":1}`, big, `[1,2]`} {
		req := &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i)), Method: "echo", Params: json.RawMessage(params)}
		if err := client.Write(ctx, req); err != nil {
			t.Fatal(err)
		}
		m, err := client.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp := m.(*jsonrpc.Response)
		if resp.ID != req.ID || string(resp.Result) != params {
			t.Fatalf("echo %d: id %v, %d bytes", i, resp.ID, len(resp.Result))
		}
	}
}

func TestPipeConcurrentWritersArriveWhole(t *testing.T) {
	client, server := Pipe()
	defer server.Close()
	ctx := context.Background()
	const writers, each = 4, 100
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				n, _ := jsonrpc.NewNotification("n", map[string]int{"g": g, "i": i})
				if err := client.Write(ctx, n); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	seen := map[string]bool{}
	for range writers * each {
		m, err := server.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen[string(m.(*jsonrpc.Notification).Params)] = true
	}
	wg.Wait()
	if len(seen) != writers*each {
		t.Fatalf("%d distinct messages, want %d", len(seen), writers*each)
	}
}

func TestPipeCloseEitherEndEndsBoth(t *testing.T) {
	for _, closeServer := range []bool{false, true} {
		client, server := Pipe()
		closing, other := client, server
		if closeServer {
			closing, other = server, client
		}
		ctx := context.Background()
		readDone := make(chan error)
		go func() {
			_, err := other.Read(ctx)
			readDone <- err
		}()
		if err := closing.Close(); err != nil {
			t.Fatal(err)
		}
		err := <-readDone
		if !errors.Is(err, jsonrpc.ErrClosed) || !bytes.Contains([]byte(err.Error()), []byte("other end")) {
			t.Fatalf("peer Read: %v, want ErrClosed naming the other end", err)
		}
		if _, err := closing.Read(ctx); !errors.Is(err, jsonrpc.ErrClosed) {
			t.Fatalf("closed end Read: %v", err)
		}
		for _, s := range []jsonrpc.Stream{closing, other} {
			if err := s.Write(ctx, &jsonrpc.Notification{Method: "late"}); !errors.Is(err, jsonrpc.ErrClosed) {
				t.Fatalf("Write after close: %v, want ErrClosed", err)
			}
		}
		other.Close()
		closing.Close()
	}
}

func TestPipeConcurrentCloseOfBothEnds(t *testing.T) {
	client, server := Pipe()
	var wg sync.WaitGroup
	for _, s := range []jsonrpc.Stream{client, server, client, server} {
		wg.Go(func() { s.Close() })
	}
	wg.Wait()
}

func TestPipeWriteHonoursContext(t *testing.T) {
	client, server := Pipe()
	defer client.Close()
	_ = server // never reads, so once its one line of read-ahead is taken, writes block
	// The server end's reader takes this line and holds it for a Read
	// that never comes; without it, the Write below could still go
	// through (into the read-ahead) if it ran before cancel.
	if err := client.Write(context.Background(), &jsonrpc.Notification{Method: "read-ahead"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- client.Write(ctx, &jsonrpc.Notification{Method: "blocked"}) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Write: %v, want context.Canceled", err)
	}
}
