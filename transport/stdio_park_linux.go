package transport

import "syscall"

// Parking (readmode.Parker) lets an idle stdio connection wait for its
// server's next message with no goroutine: the engine's read goroutine,
// holding the turn with nothing to wait for, parks the stream and ends.
// The shared poller (stderrPolling) then watches stdout, once
// (EPOLLONESHOT, level-triggered, so input that is already there is
// reported at once), and calls ready on its own goroutine when input
// comes, stdout ends, or the server exits (serverExited).

// Park arranges for ready to be called when the pipe has input or has
// ended. It reports false when it cannot: the server is gone (reads no
// longer wait), or the poller is unavailable.
func (p *readyPipe) Park(ready func()) bool {
	if p.gone.Load() {
		return false
	}
	fd := -1
	if err := p.rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return false // closed
	}
	return stderrPolling.park(p, fd, ready)
}

// Unpark cancels a pending Park; false means ready has been or is being
// called, or nothing was parked.
func (p *readyPipe) Unpark() bool { return stderrPolling.unpark(p) != nil }

// park watches fd for p, once. It reports false if it cannot.
func (s *stderrPoller) park(p *readyPipe, fd int, ready func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.parkFd >= 0 || !s.usableLocked() || !s.watchLocked(fd, syscall.EPOLLIN|syscall.EPOLLONESHOT) {
		return false
	}
	p.ready, p.parkFd = ready, fd
	s.parked[fd] = p
	return true
}

// unpark drops p's pending Park and returns its ready func, nil if none
// was pending. The caller calls it, or drops it to cancel.
func (s *stderrPoller) unpark(p *readyPipe) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unparkLocked(p)
}

func (s *stderrPoller) unparkLocked(p *readyPipe) func() {
	if p.parkFd < 0 || s.parked[p.parkFd] != p {
		return nil
	}
	delete(s.parked, p.parkFd)
	_ = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_DEL, p.parkFd, nil)
	ready := p.ready
	p.ready, p.parkFd = nil, -1
	s.wakeIfIdle()
	return ready
}

// parkedReady handles an event on a parked stdout: its Park is over.
func (s *stderrPoller) parkedReady(fd int) {
	s.mu.Lock()
	var ready func()
	if p := s.parked[fd]; p != nil {
		ready = s.unparkLocked(p)
	}
	s.mu.Unlock()
	if ready != nil {
		ready()
	}
}
