package quietsys

import (
	"syscall"
	"unsafe"
)

// Read reads from fd, which must be in non-blocking mode, retrying on
// EINTR.
func Read(fd int, p []byte) (int, error) { return rawIO(syscall.SYS_READ, fd, p) }

// Write writes to fd, which must be in non-blocking mode, once: what
// fits now, or EAGAIN. It retries on EINTR.
func Write(fd int, p []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, p) }

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
