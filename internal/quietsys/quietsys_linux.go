package quietsys

import (
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Read reads from fd, retrying on EINTR, and never waits where the kernel
// can say so per call: preadv2 with RWF_NOWAIT, made quietly, gives what
// is there or EAGAIN whatever the descriptor's mode. Elsewhere a
// descriptor in non-blocking mode is read quietly, and one in blocking
// mode through syscall.Read, which lets the scheduler hand the processor
// on while it waits.
func Read(fd int, p []byte) (int, error) {
	if n, err, ok := nowaitIO(sysPreadv2, fd, p); ok {
		return n, err
	}
	if !nonBlockingFD(fd) {
		return retryEINTR(func() (int, error) { return syscall.Read(fd, p) })
	}
	return rawIO(syscall.SYS_READ, fd, p)
}

// Write writes to fd once, retrying on EINTR: what fits now, or EAGAIN,
// made quietly, with pwritev2 and RWF_NOWAIT where the kernel takes them,
// else as Read does: quietly in non-blocking mode, through syscall.Write
// (which may wait) in blocking mode.
func Write(fd int, p []byte) (int, error) {
	if n, err, ok := nowaitIO(sysPwritev2, fd, p); ok {
		return n, err
	}
	if !nonBlockingFD(fd) {
		return retryEINTR(func() (int, error) { return syscall.Write(fd, p) })
	}
	return rawIO(syscall.SYS_WRITE, fd, p)
}

// rwfNowait is RWF_NOWAIT: the call fails with EAGAIN where it would wait.
// Pipes take it on Linux 6 kernels; older ones refuse it (EOPNOTSUPP).
const rwfNowait = 0x8

// nowaitOff is set once the kernel refused RWF_NOWAIT (or preadv2 and
// pwritev2 themselves): Read and Write then ask the descriptor's mode
// instead, one more system call each, for the rest of the process.
var nowaitOff atomic.Bool

func init() { nowaitOff.Store(sysPreadv2 == 0) }

// nowaitIO is preadv2 or pwritev2 (trap) of p at the file's own position,
// with RWF_NOWAIT, without the scheduler: it cannot wait, whatever the
// descriptor's mode, so it needs no F_GETFL first. ok is false when the
// kernel does not take the call for this descriptor (an old kernel, a
// kind of file that refuses the flag, a sandbox that forbids the call):
// the caller then reads or writes as before.
func nowaitIO(trap uintptr, fd int, p []byte) (n int, err error, ok bool) {
	if nowaitOff.Load() {
		return 0, nil, false
	}
	var iov syscall.Iovec
	if len(p) > 0 {
		iov.Base = &p[0]
	}
	iov.SetLen(len(p))
	for {
		r, _, errno := syscall.RawSyscall6(trap, uintptr(fd), uintptr(unsafe.Pointer(&iov)), 1, ^uintptr(0), 0, rwfNowait)
		switch errno {
		case 0:
			return int(r), nil, true
		case syscall.EINTR:
			continue
		case syscall.EOPNOTSUPP, syscall.EINVAL, syscall.ENOSYS, syscall.EPERM:
			nowaitOff.Store(true)
			return 0, nil, false
		}
		return 0, errno, true
	}
}

// NonBlocking reports whether the descriptor behind rc is in non-blocking
// mode now (false when it cannot be asked, as for a closed file): whether
// a stream may count on reads and writes that never wait.
func NonBlocking(rc syscall.RawConn) bool {
	nonBlocking := false
	if rc.Control(func(fd uintptr) { nonBlocking = nonBlockingFD(int(fd)) }) != nil {
		return false
	}
	return nonBlocking
}

// nonBlockingFD asks the descriptor's mode. Without RWF_NOWAIT, Read and
// Write ask it at every call, not once: the mode belongs to the open file, which others
// may change (os.File.Fd puts its file in blocking mode, and a process's
// stdin may be shared), and a blocking read made quietly would hold its
// processor, and stop the whole process at the next collection, for as
// long as it waits. F_GETFL costs far less than the wake-up it saves. Any
// doubt answers false.
func nonBlockingFD(fd int) bool {
	flags, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	return errno == 0 && flags&syscall.O_NONBLOCK != 0
}

func retryEINTR(op func() (int, error)) (int, error) {
	for {
		n, err := op()
		if err != syscall.EINTR {
			if n < 0 {
				n = 0
			}
			return n, err
		}
	}
}

// rawIO is read(2) or write(2) of p on fd, without the scheduler.
func rawIO(trap uintptr, fd int, p []byte) (int, error) {
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	for {
		n, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(ptr), uintptr(len(p)))
		switch errno {
		case 0:
			return int(n), nil
		case syscall.EINTR:
			continue
		}
		return 0, errno
	}
}

// Readable asks, without waiting, whether a read of fd would find input,
// the end of the input, or an error.
func Readable(fd int) bool {
	const pollIn, pollErr, pollHup = 0x1, 0x8, 0x10
	pfd := struct {
		fd      int32
		events  int16
		revents int16
	}{fd: int32(fd), events: pollIn}
	var zero syscall.Timespec
	n, _, errno := syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
	if errno != 0 {
		return true // let the read find out
	}
	return n > 0 && pfd.revents&(pollIn|pollErr|pollHup) != 0
}
