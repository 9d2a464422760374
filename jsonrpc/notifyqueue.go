package jsonrpc

import "bytes"

// The delivery queue: notifications read from the stream wait here for the
// subscribers. The read loop never waits for it (responses must never wait
// behind a slow subscriber), so it is bounded instead, in count and in
// bytes, and a full queue sheds the notifications that matter least.

// Defaults of QueueLimits.
const (
	// DefaultQueueLength is the most notifications waiting for
	// subscribers when QueueLimits.Length is zero.
	DefaultQueueLength = 1024
	// DefaultQueueBytes is the most bytes of notifications waiting for
	// subscribers when QueueLimits.Bytes is zero.
	DefaultQueueBytes = 8 << 20
)

// noteOverhead is what a queued notification costs beyond its method and
// params: the Notification, its slice header and the queue's slot.
const noteOverhead = 64

// QueueLimits bound the notifications that wait for subscribers (see
// Options.Queue). A notification counts its method, its params and a
// small fixed overhead. One notification larger than Bytes is still
// queued when the queue is otherwise empty, so what a queue holds stays
// under Bytes plus the largest single message.
type QueueLimits struct {
	// Length is the most notifications queued. Zero or negative means
	// DefaultQueueLength (1024).
	Length int
	// Bytes is the most bytes queued. Zero or negative means
	// DefaultQueueBytes (8 MiB).
	Bytes int
}

func (l QueueLimits) resolved() QueueLimits {
	if l.Length <= 0 {
		l.Length = DefaultQueueLength
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultQueueBytes
	}
	return l
}

// NotificationClass says how a full delivery queue treats a notification
// (see Options.Classify).
type NotificationClass uint8

const (
	// Kept notifications are dropped from a full queue only when it holds
	// nothing droppable; then the oldest queued notification goes,
	// whatever its class, so that the queue stays bounded.
	Kept NotificationClass = iota
	// Droppable notifications (logs, progress, resource updates) go
	// first, oldest first, when the queue is full.
	Droppable
	// Coalesced notifications are signals (list_changed): one arriving
	// while an equal one (same method, same params) is still queued is
	// folded into it instead of taking a slot, full queue or not, so a
	// repeated signal never piles up. Params that differ (a list_changed
	// tagged with another subscription) are kept apart, as the receiver
	// may tell them apart.
	Coalesced
)

// DefaultClassify is the classification when Options.Classify is nil:
// progress and cancelled (which the engine acts on before queueing) are
// Droppable, everything else Kept.
func DefaultClassify(method string) NotificationClass {
	switch method {
	case MethodProgress, MethodCancelled:
		return Droppable
	}
	return Kept
}

// QueueStats describe a connection's delivery queue (see Conn.QueueStats).
type QueueStats struct {
	// Dropped counts the notifications that were never delivered because
	// a queue was full: the delivery queue's, and the progress waiting for
	// a call's OnProgress.
	Dropped uint64
	// Coalesced counts the Coalesced notifications folded into an equal
	// one still queued (nothing is lost by those).
	Coalesced uint64
	// Length and Bytes are what waits for the subscribers now.
	Length, Bytes int
	// PeakLength and PeakBytes are the most that ever waited at once.
	PeakLength, PeakBytes int
	// Limits are the bounds in force.
	Limits QueueLimits
}

// noteSize is what a notification counts for against QueueLimits.Bytes.
func noteSize(method string, params []byte) int {
	return len(method) + len(params) + noteOverhead
}

// queuedNote is one notification waiting in the delivery queue.
type queuedNote struct {
	n     *Notification
	size  int
	class NotificationClass
}

// noteQueue is the delivery queue: a FIFO from head that drops by class.
// Its slots stay within about twice its longest length. It lives in
// inFlight, so every method runs under Conn.mu.
type noteQueue struct {
	buf   []queuedNote
	head  int
	bytes int
	// droppable and coalesced count the queued notifications of those
	// classes, so that a search for one is made only when it can succeed.
	droppable, coalesced int
	// unreported counts drops not yet told to Options.OnDropped.
	unreported int
	stats      QueueStats
}

// notes returns the delivery queue, made on first use.
func (s *inFlight) notes() *noteQueue {
	if s.queue == nil {
		s.queue = new(noteQueue)
	}
	return s.queue
}

func (q *noteQueue) len() int { return len(q.buf) - q.head }

// push queues n within limits, dropping what the class rules say when
// the queue is full. It never blocks and never fails: a notification that
// finds no room is itself counted as dropped.
func (q *noteQueue) push(n *Notification, class NotificationClass, limits QueueLimits) {
	size := noteSize(n.Method, n.Params)
	if class == Coalesced && q.coalesced > 0 && q.coalesceInto(n) {
		return
	}
	for q.len() > 0 && (q.len() >= limits.Length || q.bytes+size > limits.Bytes) {
		if !q.evict(class) {
			// Only Kept notifications are queued and n is droppable: n
			// is the oldest droppable notification there is.
			q.dropped(1)
			return
		}
	}
	if q.head > 0 && len(q.buf) == cap(q.buf) {
		k := copy(q.buf, q.buf[q.head:])
		clear(q.buf[k:])
		q.buf, q.head = q.buf[:k], 0
	}
	q.buf = append(q.buf, queuedNote{n: n, size: size, class: class})
	q.bytes += size
	q.count(class, 1)
	q.stats.PeakLength = max(q.stats.PeakLength, q.len())
	q.stats.PeakBytes = max(q.stats.PeakBytes, q.bytes)
}

// coalesceInto reports whether a notification equal to n is queued, in
// which case n is folded into it (counted, not queued).
func (q *noteQueue) coalesceInto(n *Notification) bool {
	for i := q.head; i < len(q.buf); i++ {
		e := &q.buf[i]
		if e.class == Coalesced && e.n.Method == n.Method && bytes.Equal(e.n.Params, n.Params) {
			q.stats.Coalesced++
			return true
		}
	}
	return false
}

// evict drops one queued notification to make room for one of class: the
// oldest droppable one; when there is none, the oldest of all, unless the
// newcomer is droppable itself (then false: it is the one to drop).
func (q *noteQueue) evict(class NotificationClass) bool {
	i := q.head
	if q.droppable > 0 {
		for q.buf[i].class != Droppable {
			i++
		}
	} else if class == Droppable {
		return false
	}
	e := q.buf[i]
	// The notifications before it are Kept or Coalesced ones, which a
	// flood of droppable ones leaves few of: the shift is short.
	copy(q.buf[q.head+1:i+1], q.buf[q.head:i])
	q.buf[q.head] = queuedNote{}
	q.head++
	q.bytes -= e.size
	q.count(e.class, -1)
	q.dropped(1)
	q.compactIfEmpty()
	return true
}

// pop takes the oldest notification; the queue must not be empty.
func (q *noteQueue) pop() *Notification {
	e := q.buf[q.head]
	q.buf[q.head] = queuedNote{}
	q.head++
	q.bytes -= e.size
	q.count(e.class, -1)
	q.compactIfEmpty()
	return e.n
}

// shrinkAbove is the capacity beyond which an emptied queue lets its
// slots go, so that a burst long past costs an idle connection nothing.
const shrinkAbove = 64

func (q *noteQueue) compactIfEmpty() {
	if q.head < len(q.buf) {
		return
	}
	if cap(q.buf) > shrinkAbove {
		q.buf = nil
	} else {
		q.buf = q.buf[:0]
	}
	q.head = 0
}

func (q *noteQueue) count(class NotificationClass, d int) {
	switch class {
	case Droppable:
		q.droppable += d
	case Coalesced:
		q.coalesced += d
	}
}

// dropped counts k notifications that will never be delivered.
func (q *noteQueue) dropped(k int) {
	q.stats.Dropped += uint64(k)
	q.unreported += k
}

// takeUnreported returns the drops not yet reported and forgets them.
func (q *noteQueue) takeUnreported() int {
	k := q.unreported
	q.unreported = 0
	return k
}
