package jsonrpc

import (
	"context"
	"testing"
)

// useReadLoop makes newTestConn hand the engine a ReadLooper, so that the
// engine's tests can run once more over that path. Tests of this package
// do not run in parallel.
var useReadLoop bool

// loopStream is a memStream that offers ReadLoop.
type loopStream struct{ *memStream }

func (s *loopStream) ReadLoop(deliver func(Message, error) bool) error {
	for {
		msg, err := s.memStream.Read(context.Background())
		if err != nil && !IsDecodeError(err) {
			return err
		}
		if !deliver(msg, err) {
			return nil
		}
	}
}

// The engine behaves the same when the stream runs the read loop.
func TestEngineOverReadLooper(t *testing.T) { runEngineTests(t, &useReadLoop) }
