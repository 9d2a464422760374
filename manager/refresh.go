package manager

import "time"

// debouncer decides when to serve list_changed announcements: a list is
// due once no announcement of it came for quiet, and at the latest max
// after the first one not yet served. Owned by one supervisor goroutine.
type debouncer struct {
	quiet, max time.Duration
	// timer fires when the earliest pending list is due; stopped when
	// none is pending.
	timer   *time.Timer
	pending [numLists]struct {
		first, last time.Time
		on          bool
	}
}

func newDebouncer(quiet, maxWait time.Duration) *debouncer {
	d := &debouncer{quiet: quiet, max: maxWait, timer: time.NewTimer(time.Hour)}
	d.timer.Stop()
	return d
}

func (d *debouncer) stop() { d.timer.Stop() }

// note records an announcement of list.
func (d *debouncer) note(list int) {
	now := time.Now()
	p := &d.pending[list]
	if !p.on {
		p.on, p.first = true, now
	}
	p.last = now
	d.arm(now)
}

// dueAt is when pending list i is due.
func (d *debouncer) dueAt(i int) time.Time {
	p := &d.pending[i]
	quiet, latest := p.last.Add(d.quiet), p.first.Add(d.max)
	if latest.Before(quiet) {
		return latest
	}
	return quiet
}

// arm sets the timer for the earliest pending list.
func (d *debouncer) arm(now time.Time) {
	var next time.Time
	for i := range d.pending {
		if d.pending[i].on {
			if at := d.dueAt(i); next.IsZero() || at.Before(next) {
				next = at
			}
		}
	}
	if next.IsZero() {
		d.timer.Stop()
		return
	}
	d.timer.Reset(max(next.Sub(now), 0))
}

// take returns the lists due now, which are no longer pending, and
// re-arms the timer for the rest.
func (d *debouncer) take() []int {
	now := time.Now()
	var out []int
	for i := range d.pending {
		if d.pending[i].on && !d.dueAt(i).After(now) {
			d.pending[i].on = false
			out = append(out, i)
		}
	}
	d.arm(now)
	return out
}
