package transport

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// readyPipe is the read end of an OS pipe that can wait for input in the
// runtime's poller without a read buffer (a jsonl.ReadyWaiter): an idle
// stdio connection then holds no buffer for stdout.
type readyPipe struct {
	*os.File
	rc syscall.RawConn
	// check is p.hasInput, made once so that a wait allocates nothing.
	check func(fd uintptr) bool
}

// newReadyPipe wraps f, or returns f itself if it cannot wait that way.
func newReadyPipe(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	p := &readyPipe{File: f, rc: rc}
	p.check = p.hasInput
	return p
}

// WaitReady returns once the pipe has input or has ended, or with the
// read deadline's error.
func (p *readyPipe) WaitReady() error { return p.rc.Read(p.check) }

// hasInput asks the kernel, without waiting, whether a read would find
// input or the end of the pipe. The poller's readiness alone cannot say:
// it may be left over from input an earlier read already took.
func (p *readyPipe) hasInput(fd uintptr) bool {
	const pollIn, pollErr, pollHup = 0x1, 0x8, 0x10
	pfd := struct {
		fd      int32
		events  int16
		revents int16
	}{fd: int32(fd), events: pollIn}
	var zero syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
	if errno != 0 {
		return true // let the read find out
	}
	return n > 0 && pfd.revents&(pollIn|pollErr|pollHup) != 0
}
