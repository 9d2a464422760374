package server

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// CodeServerBusy is the JSON-RPC error code of a request refused because
// its session already runs Options.MaxInFlight requests.
const CodeServerBusy = -32000

// OrDefault reads a bound given in options whose zero means a default
// (Options.MaxInFlight; the gateway's session bounds): def for zero, zero
// (no bound) for a negative v, and v itself otherwise.
func OrDefault[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// admit takes one of the session's places for a request, reporting false
// when all are taken. A place is held from the request's arrival until
// its response is written (or its cancellation is noted), so that the
// requests a session runs, and their goroutines, stay within the bound.
//
// A place whose response is being written is about to be free: the host
// may already have read the response and sent its next request before
// the worker that wrote it gives the place back, and a host that waits
// for each answer must never be told the server is busy. So a request
// that finds places only held that way waits for one, for drainTimeout at
// most (a host that does not read keeps its responses from being
// written); one that finds every place running a handler is refused at
// once. ctx is the reader's.
func (ss *Session) admit(ctx context.Context) bool {
	bound := ss.srv.maxInFlight
	var timeout <-chan time.Time
	ss.mu.Lock()
	for bound > 0 && ss.requests >= bound {
		if ss.writing == 0 {
			ss.mu.Unlock()
			return false
		}
		changed := ss.changedLocked()
		ss.mu.Unlock()
		if timeout == nil {
			timer := time.NewTimer(drainTimeout)
			defer timer.Stop()
			timeout = timer.C
		}
		select {
		case <-changed:
		case <-timeout:
			return false
		case <-ctx.Done():
			return false
		case <-ss.ctx.Done():
			return false
		}
		ss.mu.Lock()
	}
	ss.requests++
	ss.mu.Unlock()
	return true
}

// leaveLocked gives back the place admit took.
func (ss *Session) leaveLocked() { ss.requests-- }

// refuseBusy answers req, which found no place, with the busy error. The
// request is not lost: the client learns at once that it did not run and
// may send it again; the reader reads on meanwhile, so that the
// cancellations of the requests that do run still reach them.
func (ss *Session) refuseBusy(ctx context.Context, req *jsonrpc.Request) {
	e := jsonrpc.NewError(CodeServerBusy, busyMessage(ss.srv.maxInFlight))
	ss.answerAtOnce(ctx, &jsonrpc.Response{ID: req.ID, Error: e}, req.ID)
}

// busyMessage is the busy error's text under bound.
func busyMessage(bound int) string {
	return "server busy: " + countOf(bound, "request") + " already in flight on this session (its bound); send it again once one is answered"
}

// countOf is "n things", or "1 thing".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// maxQueuedAnswers bounds the reader's answers (busy errors, bad-frame
// errors) waiting for their write. Only a host that does not read its
// output lets them pile up, and only slowly: each held the reader up for
// drainTimeout first. A host that has not read for that long (over half
// an hour) has its session ended: a reader left waiting for room could
// not see the host's input end, and the session would outlive its host.
const maxQueuedAnswers = 1024

// errAnswersNotRead is why a session whose host did not read ended.
var errAnswersNotRead = fmt.Errorf("ended the session: its client did not read its output while %d answers to its requests waited", maxQueuedAnswers)

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
// bound and did not read. Past maxQueuedAnswers the session ends.
func (ss *Session) answerAtOnce(ctx context.Context, resp *jsonrpc.Response, related jsonrpc.ID) {
	a := queuedAnswer{resp: resp, related: related, written: make(chan struct{})}
	ss.mu.Lock()
	if len(ss.answers) >= maxQueuedAnswers {
		ss.endErr = errAnswersNotRead
		ss.mu.Unlock()
		ss.problem(errAnswersNotRead)
		// As Server.Close does: the reader stops, and the session ends.
		ss.cancel()
		ss.out.close()
		return
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
			ss.mu.Unlock()
			return
		}
		a := ss.answers[0]
		ss.answers[0] = queuedAnswer{}
		ss.answers = ss.answers[1:]
		ss.mu.Unlock()
		_ = ss.out.send(ss.ctx, a.resp, a.related)
		close(a.written)
	}
}

// endedBecause is why the server ended the session itself, nil when it
// did not (or did so at Close).
func (ss *Session) endedBecause() error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.endErr
}
