package jsonrpc

// Streams that push (see readmode.Pusher): the engine runs no read goroutine; the
// stream's own goroutines call take through pushReceiver.

// pushReceiver takes what a pushing stream receives.
type pushReceiver struct{ c *Conn }

func (r pushReceiver) Receive(msg Message, err error) bool {
	more, _, _ := r.c.take(msg, err)
	return more
}

// startPush hands the stream the engine's receiver.
func (c *Conn) startPush(p pusher) {
	p.Push(pushReceiver{c}, c.pushEnded)
}

// pushEnded ends the connection when a pushing stream ended by itself. It
// runs on one of the stream's goroutines, which closing the stream may
// wait for, so the stream is closed from a goroutine of the engine's.
func (c *Conn) pushEnded(cause error) {
	c.update(func(s *inFlight) {
		c.spawnLocked(s, func() { c.end(cause, false) })
	})
}
