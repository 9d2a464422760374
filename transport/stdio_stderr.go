package transport

import (
	"io"
	"sync"
)

// stderrLog drains a child's stderr: it keeps the last size bytes in a ring
// and copies everything to an optional tee. The ring grows only as stderr
// arrives: most servers write little or nothing, and an idle connection
// should not hold 64 KiB for it.
type stderrLog struct {
	tee io.Writer // nil, or nil after its first error

	mu   sync.Mutex
	size int    // how many bytes to keep
	ring []byte // grows as stderr arrives; len == size once full
	next int    // where the next byte goes once the ring is full
	full bool
}

// keep appends p to the ring, overwriting the oldest bytes.
func (l *stderrLog) keep(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	size := l.size
	if len(p) >= size {
		l.ring = append(l.ring[:0], p[len(p)-size:]...)
		l.next, l.full = 0, true
		return
	}
	if !l.full {
		room := size - len(l.ring)
		if len(p) <= room {
			l.ring = append(l.ring, p...)
			if len(l.ring) == size {
				l.full = true
			}
			return
		}
		l.ring = append(l.ring, p[:room]...)
		p = p[room:]
		l.full, l.next = true, 0
	}
	n := copy(l.ring[l.next:], p)
	if n < len(p) {
		copy(l.ring, p[n:])
	}
	l.next = (l.next + len(p)) % size
}

// bytes returns the kept bytes, oldest first.
func (l *stderrLog) bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.full {
		return append([]byte(nil), l.ring...)
	}
	out := make([]byte, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}
