//go:build unix

package transport

import (
	"os"
	"sync"
	"syscall"
)

// stderrChunk is how much of stderr one read takes. The buffer is shared
// (stderrBufs) and held only while a chunk is handled, so it can be large.
const stderrChunk = 16 << 10

var stderrBufs = sync.Pool{New: func() any { return new([stderrChunk]byte) }}

// drain reads f until it ends or fails (EOF, or closed). It waits for
// stderr in the runtime's poller without a buffer: one is taken from
// stderrBufs only once a read finds bytes, so a quiet child costs nothing
// but this parked goroutine. The tee is only ever written from here, after
// the read, so that closing f never waits for a slow tee.
func (l *stderrLog) drain(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	for {
		var (
			buf  *[stderrChunk]byte // set only while it holds a chunk
			n    int
			rerr error
		)
		err := rc.Read(func(fd uintptr) bool {
			buf = stderrBufs.Get().(*[stderrChunk]byte)
			n, rerr = readRetryingEINTR(int(fd), buf[:])
			if rerr == syscall.EAGAIN {
				stderrBufs.Put(buf)
				buf = nil
				return false // wait until the pipe is readable
			}
			return true
		})
		if buf != nil {
			if n > 0 {
				l.keep(buf[:n])
				if l.tee != nil {
					if _, werr := l.tee.Write(buf[:n]); werr != nil {
						l.tee = nil
					}
				}
			}
			stderrBufs.Put(buf)
		}
		if err != nil || rerr != nil || n <= 0 {
			return
		}
	}
}

func readRetryingEINTR(fd int, p []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, p)
		if err != syscall.EINTR {
			return n, err
		}
	}
}
