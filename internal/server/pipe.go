package server

import (
	"context"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Connect serves a new session of s on an in-memory pipe (JSON lines, as
// on stdio) and returns the client's end of it and the server's Session.
// When the test ends the client end is closed and Connect waits until the
// session has ended.
func Connect(t testing.TB, s *Server) (jsonrpc.Stream, *Session) {
	t.Helper()
	client, ss, done, err := s.servePipe()
	if err != nil {
		t.Fatalf("mcptest.Connect: %v", err)
	}
	t.Cleanup(func() {
		_ = client.Close()
		<-done
	})
	return client, ss
}

// Transport returns an in-memory transport to s. It satisfies
// transport.Transport (mcptest does not import package transport, so that
// transport's own tests can use mcptest).
func (s *Server) Transport() *PipeTransport { return &PipeTransport{s} }

// PipeTransport connects to a Server in process. Every Connect starts a
// new session on a new in-memory pipe (JSON lines, as on stdio). A session
// ends when the client closes its stream or the server is closed;
// Server.Close waits for them. Safe for concurrent use.
type PipeTransport struct{ s *Server }

// Connect starts a session and returns the client's end of its pipe.
func (p *PipeTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	client, _, _, err := p.s.servePipe()
	return client, err
}
