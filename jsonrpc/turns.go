package jsonrpc

import (
	"context"
	"time"
)

// Reading in turns (a stream that is a readmode.TurnReader).
//
// A call's round trip over a local pipe is mostly wake-ups: when a read
// goroutine reads the response and hands it to the waiting caller, the
// caller must be woken, and on a small machine that wake-up costs about as
// much as the pipe itself. So while nobody else reads, a caller that is
// waiting for its response reads the stream itself: its own response
// then costs no handoff, and what else it reads (other responses, the
// peer's requests and notifications) is dispatched as the read goroutine
// would. The turn to read is held by one goroutine at a time:
//
//   - a caller (inFlight.turnCall), from after its request was written
//     until its response or progress arrived, its deadline passed or its
//     ctx ended (then the turn is interrupted);
//   - or the engine's read goroutine (inFlight.turnBG), while calls wait
//     whose callers do not read (concurrent calls: one caller reads at a
//     time, the read goroutine serves the rest), and after the connection
//     has been idle for idleTurnDelay, so that the peer's notifications
//     and requests are read between calls;
//   - or nobody, for at most idleTurnDelay after the last response: the
//     next call takes the turn at once instead of waiting for the read
//     goroutine to hand over its response. The idle timer is armed
//     whenever the turn is free, so input is never left unread for longer.
//
// The read goroutine gives up the turn when it has delivered a response
// and no call waits any more.

// idleTurnDelay is how long the turn may stay free before the read
// goroutine takes it. The peer's messages between calls wait at most this
// long; sequential calls closer together than this read their own
// responses.
const idleTurnDelay = time.Millisecond

// turnLoop is the read goroutine of a stream read in turns: it reads whenever
// it holds the turn, and ends the connection when the stream ends. held
// says it starts holding the turn; woke, that it was started because the
// parked stream has input, which it reads before it may park again.
//
// A stream that can park (readmode.Parker) lets it end while it holds
// the turn with no call waiting: the stream calls bgReady when input
// comes, which starts it again. When the turn comes to it while it is
// not running and no call waits, the stream is parked at once and no
// goroutine is started (giveTurnToBGLocked). An idle connection then
// holds no goroutine; a caller that comes first unparks the stream and
// reads itself (readOwnResponse).
func (c *Conn) turnLoop(held, woke bool) {
	bg := &bgReceiver{c: c}
	lifeDone := c.lifeCtx().Done()
	var cause error
	for cause == nil {
		if !held {
			select {
			case <-c.rd.bgTurn:
			case <-lifeDone:
				cause = c.Err()
				continue
			}
		}
		for held = true; held && cause == nil; {
			var deadline time.Time
			if c.rd.parker != nil {
				switch {
				case woke:
					// Read what woke it, briefly, before parking
					// again: the stream would report it at once.
					woke = false
					deadline = time.Now().Add(idleTurnDelay)
				default:
					parked, retry := c.parkBG()
					if parked {
						return // bgReady starts the next one
					}
					if retry {
						deadline = time.Now().Add(idleTurnDelay)
					}
				}
			}
			bg.yielded = false
			err := c.rd.turns.ReadTurn(deadline, bg)
			switch {
			case err != nil:
				cause = err
			case bg.stop != nil:
				cause = bg.stop
			case bg.yielded:
				held = false
			case c.Err() != nil:
				cause = c.Err()
			}
		}
	}
	c.update(func(s *inFlight) { s.bgRunning = false })
	c.end(cause, false)
}

// parkBG parks the stream while the read goroutine holds the turn and no
// call waits. parked says the goroutine is to end; retry, that input is
// buffered and must be read (for a moment) before parking is tried again.
func (c *Conn) parkBG() (parked, retry bool) {
	c.update(func(s *inFlight) {
		if parked, retry = c.parkLocked(s); parked {
			s.bgRunning = false
		}
	})
	return parked, retry
}

// parkLocked parks the stream for the read goroutine, which holds the
// turn, if the stream can park and no call waits. It is called inside
// update.
func (c *Conn) parkLocked(s *inFlight) (parked, retry bool) {
	if s.bgParked {
		return true, false
	}
	if c.rd.parker == nil || s.ended != nil || !s.turnBG || s.calls.len() > 0 {
		return false, false
	}
	if parked, retry = c.rd.parker.Park(c.rd.wake); parked {
		s.bgParked = true
	}
	return parked, retry
}

// bgReady is the parked stream's call: input came, the stream ended or
// its peer is gone. The read goroutine, which still holds the turn, is
// started again to read it.
func (c *Conn) bgReady() {
	c.update(func(s *inFlight) {
		if !s.bgParked {
			return
		}
		s.bgParked = false
		if s.ended == nil {
			s.bgRunning = true
			go c.turnLoop(true, true)
		}
	})
}

// unparkLocked takes the turn back from a parked stream for a caller that
// will read itself. It is called inside update.
func (c *Conn) unparkLocked(s *inFlight) {
	if s.bgParked && c.rd.parker.Unpark() {
		s.bgParked, s.turnBG = false, false
	}
}

// bgReceiver takes what the read goroutine reads in its turns.
type bgReceiver struct {
	c       *Conn
	stop    error // why reading must stop, from take
	yielded bool  // the turn was given up (see yieldTurn)
}

func (r *bgReceiver) Receive(msg Message, err error) bool {
	more, _, why := r.c.take(msg, err)
	if !more {
		r.stop = why
		return false
	}
	if _, ok := msg.(*Response); ok && err == nil {
		r.yielded = r.c.yieldTurn()
		return !r.yielded
	}
	return true
}

// yieldTurn gives up the read goroutine's turn when no call waits for a
// response: the next caller will read for itself. It reports whether it
// did.
func (c *Conn) yieldTurn() bool {
	yielded := false
	c.update(func(s *inFlight) {
		if s.calls.len() == 0 && s.ended == nil && s.turnBG {
			s.turnBG = false
			c.rd.idleTimer.Reset(idleTurnDelay)
			yielded = true
		}
	})
	return yielded
}

// idleTurn runs when the turn stayed free for idleTurnDelay: the read
// goroutine takes it.
func (c *Conn) idleTurn() {
	c.update(func(s *inFlight) {
		if s.ended == nil && s.turnCall == nil && !s.turnBG {
			c.giveTurnToBGLocked(s)
		}
	})
}

func (c *Conn) giveTurnToBGLocked(s *inFlight) {
	s.turnBG = true
	if !s.bgRunning {
		// With nothing to read for anyone, the turn goes straight to
		// the parked stream: no goroutine is started only to park.
		if parked, _ := c.parkLocked(s); parked {
			return
		}
		s.bgRunning = true
		go c.turnLoop(true, false)
		return
	}
	select {
	case c.rd.bgTurn <- struct{}{}:
	default:
	}
}

// readOwnResponse reads the stream on the caller's goroutine while the
// call waits, if the turn is free and nothing waits for the call already.
// It returns true when the turn ended because the call got its response
// or progress, so that the caller may read again after collecting it, and
// false when reading in turns is not worth trying again for this call:
// its deadline passed or its ctx ended during the turn, the turn was cut
// short, or the stream ended.
func (c *Conn) readOwnResponse(ctx context.Context, p *pendingCall) bool {
	if ctx.Err() != nil {
		return false
	}
	took, late := false, false
	var deadline time.Time
	now := time.Now()
	c.update(func(s *inFlight) {
		if late = p.expired || (!p.deadline.IsZero() && !p.deadline.After(now)); late {
			return
		}
		if s.ended != nil || s.turnCall != nil || p.resp != nil || p.err != nil || len(p.progress) > 0 {
			return
		}
		// Unparked only for a call that will read: one whose response
		// the read goroutine already delivered (before it parked) would
		// leave the turn free with no idle timer armed, and the idle
		// connection would read nothing until the next call.
		c.unparkLocked(s)
		if !s.turnBG {
			s.turnCall = p
			took, deadline = true, p.deadline
		}
	})
	if late {
		return false
	}
	if !took {
		return true
	}
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	var stopWatch func() bool
	if ctx.Done() != nil {
		stopWatch = context.AfterFunc(ctx, func() { c.interruptTurn(p) })
	}
	p.turnStop, p.turnWoke = nil, false
	err := c.rd.turns.ReadTurn(deadline, p)
	if stopWatch != nil {
		stopWatch()
	}
	broken := err != nil || p.turnStop != nil
	c.update(func(s *inFlight) {
		s.turnCall = nil
		if broken || s.calls.len() > 0 {
			// Calls still wait (maybe this one, for more than
			// progress), or the stream ended and the read goroutine
			// must say so.
			c.giveTurnToBGLocked(s)
			return
		}
		c.rd.idleTimer.Reset(idleTurnDelay)
	})
	return !broken && p.turnWoke
}

// interruptTurn cuts short p's turn, if p holds it: its ctx ended.
func (c *Conn) interruptTurn(p *pendingCall) {
	c.update(func(s *inFlight) {
		if s.turnCall == p {
			c.rd.turns.Interrupt()
		}
	})
}

// Receive takes what a call's own turn reads (see readOwnResponse): the
// turn ends at the call's response or progress.
// AwaitsReply makes a caller's turn a readmode.Awaiter: it reads for the
// reply to its own request, which is coming.
func (p *pendingCall) AwaitsReply() bool { return true }

func (p *pendingCall) Receive(msg Message, err error) bool {
	more, woke, why := p.conn.take(msg, err)
	if !more {
		p.turnStop = why
		return false
	}
	p.turnWoke = woke
	return !woke
}
