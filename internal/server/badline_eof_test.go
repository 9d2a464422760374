package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// TestBadLineAnsweredBeforeInputEnds: a host that writes a bad line (and
// maybe a request) and closes stdin at once gets every answer, in the
// order of its lines, before stdout ends. The answer to the bad line was
// written by a worker that the end of the session could stop first. Both
// of the server's stdio readers are tried: its own line stream (the
// mcptest server's) and transport's stream read in turns (`mcpwire serve
// --stdio`'s). Several rounds, because before the fix the loss was a race
// that a round could win.
func TestBadLineAnsweredBeforeInputEnds(t *testing.T) {
	serves := map[string]func(s *Server, in, out *os.File) error{
		"line stream": func(s *Server, in, out *os.File) error {
			return s.ServeLines(context.Background(), in, out)
		},
		"in turns": func(s *Server, in, out *os.File) error {
			return s.Serve(context.Background(), transport.NewStream(in, out, closeAll{in, out}))
		},
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for name, serve := range serves {
		t.Run(name, func(t *testing.T) {
			for range 20 {
				if got := answersTo(t, serve, "{bad"); len(got) != 1 || !isBadLineAnswer(t, got[0]) {
					t.Fatalf("a bad line then EOF: answers %q, want the parse error", got)
				}
				got := answersTo(t, serve, "{bad", ping)
				if len(got) != 2 || !isBadLineAnswer(t, got[0]) || !isPingAnswer(t, got[1]) {
					t.Fatalf("a bad line and a ping then EOF: answers %q, want the parse error, then the ping's result", got)
				}
			}
		})
	}
}

// answersTo serves a session on OS pipes, writes lines to it and closes
// its input, and returns every line it wrote until it ended.
func answersTo(t *testing.T, serve func(s *Server, in, out *os.File) error, lines ...string) []string {
	t.Helper()
	upR, upW := osPipe(t)     // host -> server
	downR, downW := osPipe(t) // server -> host
	defer downR.Close()
	s := NewDefault(nil)
	defer s.Close()
	served := make(chan error, 1)
	go func() { served <- serve(s, upR, downW) }()
	for _, l := range lines {
		if _, err := io.WriteString(upW, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	_ = upW.Close()
	var got []string
	br := bufio.NewReader(downR)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			got = append(got, string(line))
		}
		if err != nil {
			break
		}
	}
	if err := <-served; err != nil {
		t.Fatalf("serving: %v", err)
	}
	return got
}

// osPipe returns an OS pipe's ends.
func osPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

func isBadLineAnswer(t *testing.T, line string) bool {
	r := decodeResponse(t, line)
	return r != nil && !r.ID.IsValid() && r.Error != nil && r.Error.Code == jsonrpc.CodeParseError
}

func isPingAnswer(t *testing.T, line string) bool {
	r := decodeResponse(t, line)
	return r != nil && r.ID == jsonrpc.Int64ID(1) && r.Error == nil
}

// decodeResponse decodes a line the server wrote; nil if it is no response.
func decodeResponse(t *testing.T, line string) *jsonrpc.Response {
	t.Helper()
	m, err := jsonrpc.DecodeMessage([]byte(line))
	if err != nil {
		t.Fatalf("the server wrote %q: %v", line, err)
	}
	r, _ := m.(*jsonrpc.Response)
	return r
}

// A client that does not read holds the reader up for drainTimeout at
// most: the answer to its bad line cannot be written, yet the line after
// it is read once that time has passed.
func TestBadLineAnswerHoldsAReaderBoundedly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewDefault(nil)
		defer s.Close()
		c2sR, c2sW := io.Pipe()
		s2cR, s2cW := io.Pipe() // never read
		defer s2cR.Close()
		st := newLineStream(c2sR, s2cW, func() error { return errors.Join(c2sR.Close(), s2cW.Close()) })
		served := make(chan error, 1)
		go func() { served <- s.Serve(context.Background(), st) }()
		start := time.Now()
		if _, err := io.WriteString(c2sW, "{bad\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
		defer cancel()
		if _, err := s.Sessions()[0].WaitReceived(ctx, "ping"); err != nil {
			t.Fatalf("the line after the bad one: %v", err)
		}
		if waited := time.Since(start); waited < drainTimeout {
			t.Errorf("the ping was read after %v, before the bad line's answer was given up on", waited)
		}
		_ = c2sW.Close()
		if err := <-served; err != nil {
			t.Fatalf("serving: %v", err)
		}
	})
}
