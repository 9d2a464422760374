package jsonl

import (
	"context"
	"errors"
	"io"
	"testing"
	"testing/synctest"
)

// A line queued while a direct write was in progress must not be
// forgotten when that direct write fails: the writer goroutine, which saw
// the writer busy and went back to sleep, has to be woken to fail it too.
func TestWriterDirectFailureWakesQueuedLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := NewWriter(io.Discard)
		defer w.Close()
		entered := make(chan struct{})
		release := make(chan struct{})
		broken := errors.New("broken pipe")
		w.direct = func(p []byte) (int, error) {
			close(entered)
			<-release
			return 0, broken
		}
		first := make(chan error, 1)
		go func() { first <- w.WriteFrame(context.Background(), []byte(`{"a":1}`)) }()
		<-entered
		second := make(chan error, 1)
		go func() { second <- w.WriteFrame(context.Background(), []byte(`{"b":2}`)) }()
		synctest.Wait() // the second line is queued; the writer goroutine sleeps
		close(release)
		if err := <-first; !errors.Is(err, broken) {
			t.Fatalf("direct WriteFrame = %v, want the write error", err)
		}
		synctest.Wait()
		select {
		case err := <-second:
			if !errors.Is(err, broken) {
				t.Fatalf("queued WriteFrame = %v, want the write error", err)
			}
		default:
			t.Fatal("the line queued during the failed direct write is still waiting")
		}
	})
}
