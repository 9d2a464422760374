package server

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// CodeServerBusy is the JSON-RPC error code of a request refused because
// its session already runs Options.MaxInFlight requests.
const CodeServerBusy = -32000

// resolveMaxInFlight turns Options.MaxInFlight into the bound a session
// enforces: 0 for none.
func resolveMaxInFlight(set int) int {
	switch {
	case set == 0:
		return DefaultMaxInFlight
	case set < 0:
		return 0
	}
	return set
}

// admit takes one of the session's places for a request, reporting false
// when all are taken. A place is held from the request's arrival until
// its response is written (or its cancellation is noted), so that the
// requests a session runs, and their goroutines, stay within the bound.
func (ss *Session) admit() bool {
	bound := ss.srv.maxInFlight
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if bound > 0 && ss.requests >= bound {
		return false
	}
	ss.requests++
	return true
}

// leaveLocked gives back the place admit took.
func (ss *Session) leaveLocked() { ss.requests-- }

// refuseBusy answers req, which found no place, with the busy error. The
// request is not lost: the client learns at once that it did not run and
// may send it again; the reader reads on meanwhile, so that the
// cancellations of the requests that do run still reach them.
func (ss *Session) refuseBusy(ctx context.Context, req *jsonrpc.Request) {
	bound := ss.srv.maxInFlight
	e := jsonrpc.NewError(CodeServerBusy, fmt.Sprintf("server busy: %d requests already in flight on this session (its bound); send it again once one is answered", bound))
	ss.answerAtOnce(ctx, &jsonrpc.Response{ID: req.ID, Error: e}, req.ID)
}

// maxQueuedAnswers bounds the reader's answers (busy errors, bad-frame
// errors) waiting for their write. Only a host that does not read its
// output lets them pile up; past the bound the reader waits for room, so
// the host's writes wait in turn, as a full pipe would make them.
const maxQueuedAnswers = 1024

// queuedAnswer is one of the reader's answers waiting for its write.
type queuedAnswer struct {
	resp    *jsonrpc.Response
	related jsonrpc.ID
	written chan struct{}
}

// answerAtOnce sends resp on behalf of the reader (ctx is its context)
// and waits for it to be written before the reader reads on, so that it
// comes before the answers to the messages after it and is not lost when
// the input ends right after: the session ends once its reader has, and
// that stops the writes still under way. The write itself is the
// session's work, not the reader's, because a stream's write need not
// honour ctx (a pipe's does not): a client that does not read holds the
// reader up for drainTimeout at most, as long as a stdio client waits for
// the server to finish after closing its input. Over HTTP a send only
// queues, and the wait is none.
//
// One worker writes the reader's answers, in order: one per answer was a
// goroutine left blocked every drainTimeout on a host that sent past the
// bound and did not read.
func (ss *Session) answerAtOnce(ctx context.Context, resp *jsonrpc.Response, related jsonrpc.ID) {
	a := queuedAnswer{resp: resp, related: related, written: make(chan struct{})}
	ss.mu.Lock()
	for len(ss.answers) >= maxQueuedAnswers {
		changed := ss.changed
		ss.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-ss.ctx.Done():
			return
		}
		ss.mu.Lock()
	}
	ss.answers = append(ss.answers, a)
	start := !ss.answering
	ss.answering = true
	ss.mu.Unlock()
	if start && !ss.goWork(ss.writeAnswers) {
		return // the session ended
	}
	bound := time.NewTimer(drainTimeout)
	defer bound.Stop()
	select {
	case <-a.written:
	case <-bound.C:
	case <-ctx.Done():
	}
}

// writeAnswers writes the reader's answers until none waits, or the
// session has ended (the rest then has no one to go to).
func (ss *Session) writeAnswers() {
	for {
		ss.mu.Lock()
		if len(ss.answers) == 0 || ss.ctx.Err() != nil {
			for _, a := range ss.answers {
				close(a.written) // its reader need not wait on
			}
			ss.answers, ss.answering = nil, false
			ss.signalLocked()
			ss.mu.Unlock()
			return
		}
		a := ss.answers[0]
		ss.answers[0] = queuedAnswer{}
		ss.answers = ss.answers[1:]
		ss.signalLocked() // room for a reader waiting for it
		ss.mu.Unlock()
		_ = ss.out.send(ss.ctx, a.resp, a.related)
		close(a.written)
	}
}
