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
func TestEngineOverReadLooper(t *testing.T) {
	useReadLoop = true
	defer func() { useReadLoop = false }()
	for _, tc := range []struct {
		name string
		test func(*testing.T)
	}{
		{"round trip", TestCallRoundTrip},
		{"concurrent calls", TestConcurrentCallsOutOfOrder},
		{"caller cancel", TestCallerCancel},
		{"handlers", TestHandlers},
		{"peer cancels", TestPeerCancelsRequest},
		{"subscribers", TestSubscribers},
		{"bad input", TestBadInputIsReportedAndSurvived},
		{"stream end", TestStreamEndFailsPendingCalls},
		{"close", TestClose},
		{"close from handler", TestCloseFromHandler},
	} {
		t.Run(tc.name, tc.test)
	}
}
