package jsonrpc

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
)

// pushStream is a memStream that pushes: a goroutine of its own reads
// what the peer sends and hands it to the engine, as an HTTP stream's
// reply readers do.
type pushStream struct {
	*memStream
	wg sync.WaitGroup
}

func (s *pushStream) Push(to receiver, ended func(error)) {
	s.wg.Go(func() {
		for {
			msg, err := s.memStream.Read(context.Background())
			if err != nil && !IsDecodeError(err) {
				ended(err)
				return
			}
			if !to.Receive(msg, err) {
				// The connection is over; Close will end us.
				<-s.closed
				ended(errMemClosed)
				return
			}
		}
	})
}

func (s *pushStream) Read(context.Context) (Message, error) {
	return nil, errors.New("pushStream: Read called on a stream that pushes")
}

func (s *pushStream) Close() error {
	err := s.memStream.Close()
	s.wg.Wait()
	return err
}

// Over a stream that pushes, an idle connection runs no goroutine of the
// engine's.
func TestPushRunsNoReadGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := runtime.NumGoroutine()
		s := &pushStream{memStream: newMemStream(8)}
		c := NewConn(s, Options{})
		synctest.Wait()
		// The stream's own reader is the one goroutine more.
		if n := runtime.NumGoroutine() - before; n != 1 {
			t.Fatalf("%d goroutines more, want only the stream's reader", n)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// Over a stream that pushes, an idle connection holds no lifetime
// context, even after a call; Done makes it, and it ends with the
// connection, whether made before the end or after.
func TestPushLifeMadeWhenAskedFor(t *testing.T) {
	for _, early := range []bool{true, false} {
		s := &pushStream{memStream: newMemStream(8)}
		p := &peer{t: t, s: s.memStream}
		c := NewConn(s, Options{})
		res := make(chan error, 1)
		go func() {
			_, err := c.Call(context.Background(), "m", nil, nil)
			res <- err
		}()
		p.reply(p.recvRequest(), `{}`)
		if err := <-res; err != nil {
			t.Fatal(err)
		}
		c.update(func(*inFlight) {
			if c.life != nil {
				t.Error("a call made the lifetime context of a pushing connection")
			}
		})
		var done <-chan struct{}
		if early {
			done = c.Done()
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if !early {
			done = c.Done()
		}
		select {
		case <-done:
		default:
			t.Errorf("Done (asked for before the end: %v) is not closed after Close", early)
		}
	}
}
