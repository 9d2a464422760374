package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// resultSwapper hands the client a result of its own in place of every
// tools/list result: a stream of the caller's, whose results no codec
// checked.
type resultSwapper struct {
	jsonrpc.Stream
	result json.RawMessage
}

func (s *resultSwapper) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := s.Stream.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); ok && strings.HasPrefix(string(r.Result), `{"tools":`) {
		r.Result = s.result
	}
	return m, err
}

// Over the module's own streams the client trusts the codec's check;
// over a stream of the caller's it checks results itself, so a page with
// a broken schema is an error naming the method, not a tool with bad
// bytes for a schema.
func TestResultsCheckedOnlyOverOwnStreams(t *testing.T) {
	s := newFakeServer(t)
	s.on(MethodToolsList, func(context.Context, *jsonrpc.Request) (any, error) {
		return json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`), nil
	})
	own := connect(t, s, nil)
	if !own.resultsChecked {
		t.Error("a client over transport.Pipe checks results again")
	}
	if tools, err := own.ListTools(t.Context()); err != nil || len(tools) != 1 {
		t.Fatalf("ListTools over the pipe: %v, %v", tools, err)
	}

	for _, bad := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":}}]}`,
		`{"tools":[{"name":"a","inputSchema":{"type":"object"]}]}`,
		`{"tools":[{"name":"a","x":[1,]}]}`,
	} {
		s := newFakeServer(t)
		s.on(MethodToolsList, func(context.Context, *jsonrpc.Request) (any, error) {
			return json.RawMessage(`{"tools":[]}`), nil
		})
		stream := &resultSwapper{Stream: s.start(), result: json.RawMessage(bad)}
		c, err := NewClient(t.Context(), stream, legacyUnlessPinned(nil))
		if err != nil {
			t.Fatalf("NewClient: %v", err)
		}
		if c.resultsChecked {
			t.Error("a client over a stream of the caller's trusts its results")
		}
		tools, err := c.ListTools(t.Context())
		if err == nil || !strings.Contains(err.Error(), MethodToolsList) {
			t.Errorf("%s: ListTools = %v, %v; want an error naming %s", bad, tools, err, MethodToolsList)
		}
		c.Close()
	}
}
