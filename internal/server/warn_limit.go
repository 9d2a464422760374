package server

import (
	"fmt"
	"sync"
	"time"
)

// warnLimit bounds the refused-session-id warnings (HTTPOptions.
// SessionWarn): each comes from one request, and a caller that sends bad
// ids in a loop would otherwise write a line per request to the
// operator's log. At most warnBurst lines go out per warnWindow; the
// next line after a window that held some back says how many.
type warnLimit struct {
	mu      sync.Mutex
	start   time.Time // of the current window
	sent    int       // in the current window
	dropped int       // since the last line that went out
}

const (
	warnWindow = time.Minute
	warnBurst  = 10
)

// admit reports whether a warning may go out at now, and the note to add
// to it about the warnings held back before it ("" when none were).
func (l *warnLimit) admit(now time.Time) (ok bool, note string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.start) >= warnWindow {
		l.start, l.sent = now, 0
	}
	if l.sent >= warnBurst {
		l.dropped++
		return false, ""
	}
	l.sent++
	if l.dropped > 0 {
		note = fmt.Sprintf(" (%d more refused since the last shown, not shown: at most %d a %s)", l.dropped, warnBurst, warnWindow)
		l.dropped = 0
	}
	return true, note
}
