package manager

import (
	"time"
)

// Freshness of the live tool lists (2026-07-28). A modern server says in
// each list how long it stays fresh (ttlMs). A list with a positive TTL is
// listed again once the TTL has passed and the manager next needs its
// tools (Tools, Tool, a call): the refresh goes through the supervisor's
// debounced path, as a list_changed does, and the manager serves the list
// it has meanwhile, as the revision allows. A TTL of 0, or none (every
// older server), leaves the list to list_changed notifications: the
// revision lets a client re-fetch such a list on every use, and the
// manager does not, as it would cost a round trip per model turn.
//
// The check on the hot paths is one atomic load and a clock read: the
// manager keeps the earliest time a list goes stale, and looks at its
// servers only once that time has come.

// setFreshLocked records when s's tool list, just listed, goes stale
// (ttl 0: never by time). The caller holds s.mu.
func (s *server) setFreshLocked(now time.Time, ttl time.Duration) {
	if ttl <= 0 {
		s.toolsStale = time.Time{}
		return
	}
	s.toolsStale = now.Add(ttl)
	s.m.staleSoonest(s.toolsStale)
}

// staleSoonest lowers the manager's earliest stale time to t.
func (m *Manager) staleSoonest(t time.Time) {
	n := t.UnixNano()
	for {
		cur := m.staleAt.Load()
		if cur != 0 && cur <= n {
			return
		}
		if m.staleAt.CompareAndSwap(cur, n) {
			return
		}
	}
}

// refreshStale asks the supervisors of the servers whose tool list has
// gone stale to list it again.
func (m *Manager) refreshStale() {
	at := m.staleAt.Load()
	if at == 0 {
		return
	}
	now := time.Now()
	if now.UnixNano() < at {
		return
	}
	if !m.staleAt.CompareAndSwap(at, 0) {
		return // another caller is at it
	}
	for _, s := range m.servers {
		s.mu.Lock()
		stale := s.toolsStale
		passed := !stale.IsZero() && !now.Before(stale)
		live := s.client != nil
		if passed {
			// Asked for once; without a connection, the next one
			// lists the tools anyway.
			s.toolsStale = time.Time{}
		}
		s.mu.Unlock()
		switch {
		case passed && live:
			select {
			case s.refresh[toolList] <- struct{}{}:
			default: // a refresh is already pending
			}
		case !stale.IsZero() && !passed:
			m.staleSoonest(stale)
		}
	}
}
