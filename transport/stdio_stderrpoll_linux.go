package transport

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"time"
)

// stderrPoller drains the stderr of every child without a tee from one
// goroutine, so that an idle stdio connection costs no goroutine of its own
// for it. The goroutine waits in the runtime's poller on an epoll instance
// of ours that holds the children's stderr pipes, reads whatever is ready
// into the children's rings, and exits when no child is left. A child with
// a tee gets a goroutine of its own instead (stderrLog.drain): the tee may
// block, and must not hold up the others.
//
// The same epoll instance watches a pidfd of every child (watchExit), so
// that a child's exit is noticed when it happens even if a process it
// started holds its stdout and stderr open: the child is then reaped and
// its stdout reader told to end at the end of what is buffered.
type stderrPoller struct {
	mu      sync.Mutex
	ep      *os.File           // the epoll instance, nil until first used
	epfd    int                // its descriptor (ep.Fd would make it blocking)
	wakeR   int                // read end of the pipe that wakes the goroutine
	wakeW   int                // its write end
	watched map[int]*process   // by stderr descriptor
	exits   map[int]*process   // by pidfd
	parked  map[int]*readyPipe // parked stdout pipes, by descriptor (stdio_park_linux.go)
	serving bool               // the goroutine runs
	broken  bool               // no epoll here: children drain on their own
}

var stderrPolling stderrPoller

// add has the poller drain p's stderr. It reports false if it cannot.
func (s *stderrPoller) add(p *process) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.usableLocked() {
		return false
	}
	fd, ok := sysfd(p.stderr)
	// Level-triggered: whatever one read leaves is reported again.
	if !ok || !s.watchLocked(fd, syscall.EPOLLIN) {
		return false
	}
	p.stderrFd = fd
	s.watched[fd] = p
	return true
}

// usableLocked makes sure the epoll instance exists, and reports false if
// there is none and cannot be. Called with mu held.
func (s *stderrPoller) usableLocked() bool {
	return !s.broken && (s.ep != nil || s.init())
}

// watchLocked adds fd to the epoll instance for events, and makes sure
// the goroutine serves it. Called with mu held.
func (s *stderrPoller) watchLocked(fd int, events uint32) bool {
	if err := syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: events, Fd: int32(fd)}); err != nil {
		return false
	}
	if !s.serving {
		s.serving = true
		go s.serve()
	}
	return true
}

// init creates the epoll instance and the wake-up pipe, once. Called with
// mu held.
func (s *stderrPoller) init() bool {
	s.broken = true // unless all goes well
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return false
	}
	if err := syscall.SetNonblock(epfd, true); err != nil {
		syscall.Close(epfd)
		return false
	}
	ep := os.NewFile(uintptr(epfd), "stderr-epoll")
	// Only a descriptor in the runtime's poller takes deadlines.
	if err := ep.SetReadDeadline(time.Time{}); err != nil {
		ep.Close()
		return false
	}
	var wake [2]int
	if err := syscall.Pipe2(wake[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		ep.Close()
		return false
	}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, wake[0], &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(wake[0])}); err != nil {
		ep.Close()
		syscall.Close(wake[0])
		syscall.Close(wake[1])
		return false
	}
	s.ep, s.epfd, s.wakeR, s.wakeW = ep, epfd, wake[0], wake[1]
	s.watched = make(map[int]*process)
	s.exits = make(map[int]*process)
	s.parked = make(map[int]*readyPipe)
	s.broken = false
	return true
}

// remove stops draining p's stderr and reports whether it was being
// drained here; the caller then ends the drain (closes p.drained). It
// comes before p.stderr is closed, so the descriptor is never watched
// after it could be reused.
func (s *stderrPoller) remove(p *process) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.stderrFd < 0 || s.watched[p.stderrFd] != p {
		return false
	}
	delete(s.watched, p.stderrFd)
	_ = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_DEL, p.stderrFd, nil)
	p.stderrFd = -1
	s.wakeIfIdle()
	return true
}

// wakeIfIdle wakes the goroutine when nothing is left to watch, so that it
// sees that and ends. Called with mu held.
func (s *stderrPoller) wakeIfIdle() {
	if s.idle() && s.serving {
		_, _ = syscall.Write(s.wakeW, []byte{0})
	}
}

// idle reports whether nothing is watched. Called with mu held.
func (s *stderrPoller) idle() bool {
	return len(s.watched) == 0 && len(s.exits) == 0 && len(s.parked) == 0
}

// watchExit has the poller watch for p's exit through a pidfd; when it
// comes, p is reaped (which tells its stdout reader). Where the poller or
// pidfds are unavailable, p is reaped by a goroutine of its own started
// now, which waits for the exit (in the runtime's poller on a pidfd, or
// without pidfds in a wait system call, on a thread of its own).
func (s *stderrPoller) watchExit(p *process) {
	if !s.addExit(p) {
		p.startReaper()
	}
}

func (s *stderrPoller) addExit(p *process) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.usableLocked() {
		return false
	}
	fd, err := pidfdOpen(p.proc.Pid)
	if err != nil {
		return false
	}
	if !s.watchLocked(fd, syscall.EPOLLIN) {
		syscall.Close(fd)
		return false
	}
	p.pidfd = fd
	s.exits[fd] = p
	return true
}

// unwatchExit stops watching for p's exit, if that is still watched, and
// closes the pidfd.
func (s *stderrPoller) unwatchExit(p *process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropExit(p)
}

// dropExit is unwatchExit with mu held. It reports whether p was watched.
func (s *stderrPoller) dropExit(p *process) bool {
	if p.pidfd < 0 || s.exits[p.pidfd] != p {
		return false
	}
	delete(s.exits, p.pidfd)
	_ = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_DEL, p.pidfd, nil)
	syscall.Close(p.pidfd)
	p.pidfd = -1
	s.wakeIfIdle()
	return true
}

// exited handles a readable pidfd: the child exited. It is reaped on a
// goroutine of its own (the exit is there, so Wait does not block).
func (s *stderrPoller) exited(fd int) {
	s.mu.Lock()
	p := s.exits[fd]
	gone := p != nil && s.dropExit(p)
	s.mu.Unlock()
	if gone {
		p.startReaper()
	}
}

// serve drains ready pipes until no child is left.
func (s *stderrPoller) serve() {
	rc, err := s.ep.SyscallConn()
	if err != nil {
		s.giveUp()
		return
	}
	var events [32]syscall.EpollEvent
	for {
		var n int
		done := false
		err := rc.Read(func(epfd uintptr) bool {
			n = epollWaitNow(int(epfd), events[:])
			if n > 0 {
				return true
			}
			// Nothing is ready: wait in the runtime's poller, unless
			// nobody is left to wait for.
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.idle() {
				s.serving, done = false, true
			}
			return done
		})
		if err != nil {
			s.giveUp() // not expected: ep is never closed
			return
		}
		if done {
			return
		}
		for _, ev := range events[:n] {
			fd := int(ev.Fd)
			if fd == s.wakeR {
				drainWakeups(fd)
				continue
			}
			s.mu.Lock()
			p := s.watched[fd]
			_, isExit := s.exits[fd]
			_, isParked := s.parked[fd]
			s.mu.Unlock()
			switch {
			case p != nil:
				s.readFrom(p)
			case isExit:
				s.exited(fd)
			case isParked:
				s.parkedReady(fd)
			}
		}
	}
}

// giveUp hands every child to a drain goroutine of its own and stops
// taking new ones: the poller failed in a way it should not.
func (s *stderrPoller) giveUp() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broken, s.serving = true, false
	for fd, p := range s.watched {
		delete(s.watched, fd)
		_ = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_DEL, fd, nil)
		p.stderrFd = -1
		go p.watch()
	}
	for fd, p := range s.exits {
		delete(s.exits, fd)
		_ = syscall.EpollCtl(s.epfd, syscall.EPOLL_CTL_DEL, fd, nil)
		syscall.Close(fd)
		p.pidfd = -1
		p.startReaper()
	}
	for _, p := range s.parked {
		if ready := s.unparkLocked(p); ready != nil {
			go ready() // not under mu: ready may reach the poller
		}
	}
}

// readFrom reads one chunk of p's stderr into its ring. At the end of
// stderr, p is removed, its drain ends, and the child gets reaped.
func (s *stderrPoller) readFrom(p *process) {
	buf := stderrBufs.Get().(*[stderrChunk]byte)
	defer stderrBufs.Put(buf)
	var (
		n    int
		rerr error
	)
	rc, err := p.stderr.SyscallConn()
	if err == nil {
		// Through the file, so that it cannot be closed (and its
		// descriptor reused) during the read.
		err = rc.Read(func(fd uintptr) bool {
			n, rerr = readRetryingEINTR(int(fd), buf[:])
			return true
		})
	}
	if n > 0 {
		p.log.keep(buf[:n])
		return
	}
	if err == nil && errors.Is(rerr, syscall.EAGAIN) {
		return // another read got there first
	}
	if s.remove(p) {
		p.stderrEnded()
	}
}

// epollWaitNow returns the events ready now, without waiting.
func epollWaitNow(epfd int, events []syscall.EpollEvent) int {
	for {
		n, err := syscall.EpollWait(epfd, events, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0
		}
		return n
	}
}

func drainWakeups(fd int) {
	var b [64]byte
	for {
		if n, err := syscall.Read(fd, b[:]); n <= 0 || err != nil {
			return
		}
	}
}

// sysfd returns f's descriptor without the side effect of f.Fd(), which
// puts it in blocking mode.
func sysfd(f *os.File) (int, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1, false
	}
	fd := -1
	if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return -1, false
	}
	return fd, true
}
