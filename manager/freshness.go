package manager

import (
	"time"
)

// Freshness of the live lists (2026-07-28). A modern server says in each
// list (tools, prompts, resources) how long it stays fresh (ttlMs). A list
// with a positive TTL is listed again once the TTL has passed and the
// manager next needs it (Tools, Tool or a call for tools; Prompts;
// Resources): the refresh goes through the supervisor's debounced path,
// as a list_changed does, and the manager serves the list it has
// meanwhile, as the revision allows. A TTL of 0, or none (every older
// server), leaves the list to list_changed notifications: the revision
// lets a client re-fetch such a list on every use, and the manager does
// not, as it would cost a round trip per model turn.
//
// The check on the hot paths is one atomic load and a clock read: the
// manager keeps, per kind of list, the earliest time a list goes stale,
// and looks at its servers only once that time has come. A stale prompt
// list therefore costs the tool paths nothing.

// setFreshLocked records when s's list (toolList, promptList or
// resourceList), just listed, goes stale (ttl 0: never by time). The
// caller holds s.mu.
func (s *server) setFreshLocked(list int, now time.Time, ttl time.Duration) {
	if ttl <= 0 {
		s.stale[list] = time.Time{}
		return
	}
	s.stale[list] = now.Add(ttl)
	s.m.staleSoonest(list, s.stale[list])
}

// staleSoonest lowers the manager's earliest stale time of list to t.
func (m *Manager) staleSoonest(list int, t time.Time) {
	n := t.UnixNano()
	at := &m.staleAt[list]
	for {
		cur := at.Load()
		if cur != 0 && cur <= n {
			return
		}
		if at.CompareAndSwap(cur, n) {
			return
		}
	}
}

// refreshStale asks the supervisors of the servers whose list of that
// kind has gone stale to list it again.
func (m *Manager) refreshStale(list int) {
	at := m.staleAt[list].Load()
	if at == 0 {
		return
	}
	now := time.Now()
	if now.UnixNano() < at {
		return
	}
	if !m.staleAt[list].CompareAndSwap(at, 0) {
		return // another caller is at it
	}
	for _, s := range m.servers {
		s.mu.Lock()
		stale := s.stale[list]
		passed := !stale.IsZero() && !now.Before(stale)
		live := s.client != nil
		if passed {
			// Asked for once; without a connection, the next one
			// lists everything anyway.
			s.stale[list] = time.Time{}
		}
		s.mu.Unlock()
		switch {
		case passed && live:
			select {
			case s.refresh[list] <- struct{}{}:
			default: // a refresh is already pending
			}
		case !stale.IsZero() && !passed:
			m.staleSoonest(list, stale)
		}
	}
}
