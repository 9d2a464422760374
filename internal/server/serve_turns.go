package server

import (
	"context"
	"time"

	"github.com/mcpwire/mcpwire/internal/readmode"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// turnReader is a stream the session can read on its own goroutine
// (transport's stream over an OS pipe, as `mcpwire serve --stdio` reads
// its host): each message is handled where it was read, with no read
// goroutine handing it over, which was one of the wake-ups every routed
// call paid (bench/NOTES.md, "The gateway").
type turnReader = readmode.TurnReader[jsonrpc.Message]

// sessionReceiver hands a turn's messages to the session; ctx is the
// reader's.
type sessionReceiver struct {
	ss  *Session
	ctx context.Context
}

func (r sessionReceiver) Receive(msg jsonrpc.Message, err error) bool {
	if err != nil {
		r.ss.receiveBad(r.ctx, err) // a turn passes only decode errors here
		return true
	}
	r.ss.receive(r.ctx, msg)
	return true
}

// readTurns reads st in turns until it ends, returning its error, or ctx
// ends, returning ctx's: the turn has no deadline, so ctx's end
// interrupts it.
func (ss *Session) readTurns(ctx context.Context, st turnReader) error {
	stop := context.AfterFunc(ctx, st.Interrupt)
	defer stop()
	to := sessionReceiver{ss, ctx}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := st.ReadTurn(time.Time{}, to); err != nil {
			return err
		}
	}
}
