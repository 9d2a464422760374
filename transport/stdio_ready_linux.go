package transport

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/internal/quietsys"
)

// readyPipe is the read end of an OS pipe that can wait for input in the
// runtime's poller without a read buffer (a jsonl.ReadyWaiter): an idle
// stdio connection then holds no buffer for stdout.
type readyPipe struct {
	*os.File
	rc syscall.RawConn
	// check is p.readyOrGone, made once so that a wait allocates nothing.
	check func(fd uintptr) bool
	// quiet reads the pipe without waking the runtime's monitor; nil
	// when the pipe is not in non-blocking mode.
	quiet *quietFile
	// gone is set once the server (the child) has exited: from then on
	// the pipe is read without waiting, and its end is where the input
	// runs out, even if a process the server started still holds the
	// write end open.
	gone atomic.Bool
	// ready and parkFd are a pending Park (see stdio_park_linux.go):
	// what to call on input, and the descriptor the shared poller
	// watches for it (-1: none). Guarded by stderrPolling.mu.
	ready  func()
	parkFd int
}

// newReadyPipe wraps f, or returns f itself if it cannot wait that way.
func newReadyPipe(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	p := &readyPipe{File: f, rc: rc, parkFd: -1}
	p.check = p.readyOrGone
	p.quiet = newQuietFile(f)
	return p
}

// WaitReady returns once the pipe has input or has ended, or the server
// exited, or with the read deadline's error.
func (p *readyPipe) WaitReady() error {
	err := p.rc.Read(p.check)
	if err != nil && p.gone.Load() {
		return nil // the wake-up of serverExited, or a deadline: Read settles it
	}
	return err
}

// Read reads as an *os.File does until the server exited; from then on
// without waiting, and the input ends where it runs out.
func (p *readyPipe) Read(b []byte) (int, error) {
	if !p.gone.Load() {
		n, err := p.readWaiting(b)
		if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) || !p.gone.Load() {
			return n, err
		}
	}
	return p.readNow(b)
}

// readWaiting reads as an *os.File does, waiting in the poller.
func (p *readyPipe) readWaiting(b []byte) (int, error) {
	if p.quiet != nil {
		return p.quiet.Read(b)
	}
	return p.File.Read(b)
}

// readNow reads what the pipe holds now, without waiting (and past any
// deadline, which serverExited set only to wake a waiter): io.EOF when it
// holds nothing.
func (p *readyPipe) readNow(b []byte) (int, error) {
	var (
		n   int
		err error
	)
	if cerr := p.rc.Control(func(fd uintptr) { n, err = readRetryingEINTR(int(fd), b) }); cerr != nil {
		return 0, cerr // closed
	}
	switch {
	case n > 0:
		return n, nil
	case err == nil || err == syscall.EAGAIN:
		return 0, io.EOF
	default:
		return 0, err
	}
}

// serverExited tells the pipe that the server was reaped, and wakes a
// reader waiting in the poller (a deadline in the past is the only way to;
// a reader in its turn sets its own deadline next, and finds gone set).
func (p *readyPipe) serverExited() {
	p.gone.Store(true)
	_ = p.SetReadDeadline(time.Unix(1, 0))
	// A parked reader is woken too: a process the server started may
	// hold stdout open, so the pipe itself may never say.
	if ready := stderrPolling.unpark(p); ready != nil {
		ready()
	}
}

// readyOrGone is the wait's check: input, the end of the pipe, or the
// server's exit.
func (p *readyPipe) readyOrGone(fd uintptr) bool { return p.gone.Load() || p.hasInput(fd) }

// hasInput asks the kernel, without waiting, whether a read would find
// input or the end of the pipe. The poller's readiness alone cannot say:
// it may be left over from input an earlier read already took.
func (p *readyPipe) hasInput(fd uintptr) bool { return quietsys.Readable(int(fd)) }
