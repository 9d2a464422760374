package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"

	"github.com/mcpwire/mcpwire/internal/wirerec"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Replay is a scripted server made from a wire recording, so that a bug
// report's recording becomes a test: each request a client sends is
// answered with the recorded response to the first recorded request, not
// yet used, of the same method and params (params compared as JSON values,
// _meta aside, since progress tokens differ from run to run), under the
// new request's id. What the server sent while that request was in flight
// (progress, log messages) is sent before the response, and what it sent
// after, with no request in flight, after it. A request with no recorded
// match gets an error response, and Unmatched lists it. Notifications and
// responses from the client are accepted and ignored.
//
// Every Connect replays from the same script: an exchange answered on one
// connection is used up for all. Safe for concurrent use.
type Replay struct {
	mu        sync.Mutex
	exchanges []*replayExchange // in recording order
	unmatched []string
	closed    bool
	streams   map[*lineStream]struct{}
	wg        sync.WaitGroup
}

// replayExchange is one recorded request and what answered it.
type replayExchange struct {
	method   string
	params   any // decoded, without _meta
	before   []jsonrpc.Message
	response *jsonrpc.Response // nil: the server never answered
	after    []jsonrpc.Message
	used     bool
}

// NewReplay reads a wire recording (as transport.Recorder writes it) and
// builds a Replay from it. Errors name the line that is not a recording
// entry or holds no JSON-RPC message.
func NewReplay(recording io.Reader) (*Replay, error) {
	entries, err := wirerec.Decode(recording)
	if err != nil {
		return nil, err
	}
	return replayOf(entries)
}

// replayOf builds a Replay from the entries of a recording.
func replayOf(recording []wirerec.Entry) (*Replay, error) {
	r := &Replay{streams: map[*lineStream]struct{}{}}
	pending := map[jsonrpc.ID]*replayExchange{}
	var inFlight []*replayExchange // pending, in the order sent
	for i, e := range recording {
		m, err := jsonrpc.DecodeMessage(e.Message)
		if err != nil {
			return nil, fmt.Errorf("mcptest: replay: entry %d: %w", i+1, err)
		}
		switch e.Direction {
		case wirerec.Send:
			req, ok := m.(*jsonrpc.Request)
			if !ok {
				continue // the client's notifications and answers
			}
			x := &replayExchange{method: req.Method, params: comparableParams(req.Params)}
			r.exchanges = append(r.exchanges, x)
			pending[req.ID] = x
			inFlight = append(inFlight, x)
		case wirerec.Receive:
			if resp, ok := m.(*jsonrpc.Response); ok {
				if x := pending[resp.ID]; x != nil {
					x.response = resp
					delete(pending, resp.ID)
					inFlight = removeExchange(inFlight, x)
				}
				continue
			}
			switch {
			case len(inFlight) > 0:
				x := inFlight[len(inFlight)-1]
				x.before = append(x.before, m)
			case len(r.exchanges) > 0:
				x := r.exchanges[len(r.exchanges)-1]
				x.after = append(x.after, m)
			}
		}
	}
	return r, nil
}

func removeExchange(xs []*replayExchange, x *replayExchange) []*replayExchange {
	for i, y := range xs {
		if y == x {
			return append(xs[:i], xs[i+1:]...)
		}
	}
	return xs
}

// comparableParams decodes params for comparison, dropping a top-level
// _meta. Params that do not decode compare as their text.
func comparableParams(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "_meta")
		if len(m) == 0 {
			return nil
		}
	}
	return v
}

// Unmatched returns the requests that found no recorded exchange, as
// "method params", in arrival order.
func (r *Replay) Unmatched() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.unmatched...)
}

// Transport returns an in-memory transport to the replay; it satisfies
// transport.Transport.
func (r *Replay) Transport() *ReplayTransport { return &ReplayTransport{r} }

// ReplayTransport connects to a Replay in process, over an in-memory pipe
// (JSON lines, as on stdio).
type ReplayTransport struct{ r *Replay }

// Connect starts a new connection to the replay.
func (t *ReplayTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := t.r
	client, server := pipePair()
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, errors.New("mcptest: the replay is closed")
	}
	r.streams[server] = struct{}{}
	r.wg.Add(1)
	r.mu.Unlock()
	go func() {
		defer r.wg.Done()
		r.serve(server)
		r.mu.Lock()
		delete(r.streams, server)
		r.mu.Unlock()
		_ = server.Close()
	}()
	return client, nil
}

// Close ends every connection and waits for them.
func (r *Replay) Close() error {
	r.mu.Lock()
	r.closed = true
	for s := range r.streams {
		_ = s.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
	return nil
}

func (r *Replay) serve(s *lineStream) {
	ctx := context.Background()
	for {
		m, err := s.Read(ctx)
		if err != nil {
			if jsonrpc.IsDecodeError(err) {
				continue
			}
			return
		}
		req, ok := m.(*jsonrpc.Request)
		if !ok {
			continue
		}
		for _, out := range r.answer(req) {
			if s.Write(ctx, out) != nil {
				return
			}
		}
	}
}

// answer returns what the replay sends for req, in order.
func (r *Replay) answer(req *jsonrpc.Request) []jsonrpc.Message {
	params := comparableParams(req.Params)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range r.exchanges {
		if x.used || x.method != req.Method || !reflect.DeepEqual(x.params, params) {
			continue
		}
		x.used = true
		out := append([]jsonrpc.Message(nil), x.before...)
		if x.response == nil {
			return out // recorded without an answer: none now either
		}
		resp := *x.response
		resp.ID = req.ID
		out = append(out, &resp)
		return append(out, x.after...)
	}
	what := req.Method + " " + string(req.Params)
	r.unmatched = append(r.unmatched, what)
	return []jsonrpc.Message{&jsonrpc.Response{ID: req.ID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
		fmt.Sprintf("mcptest: replay: no recorded %s request with these params is left", req.Method))}}
}
