package transport

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// awaitExit returns once the child has exited, so that Wait reaps it at
// once. It waits in the runtime's poller on a pidfd, which becomes
// readable when the process exits, instead of in a wait system call,
// which would hold an OS thread (and its stacks) per waiting child. Where
// pidfds are unavailable (before Linux 5.3, or refused by a sandbox) it
// returns at once and Wait blocks as it would anywhere else.
func awaitExit(proc *os.Process) {
	fd, err := pidfdOpen(proc.Pid)
	if err != nil {
		return
	}
	// The runtime's poller takes only non-blocking descriptors.
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// The callback runs first at once, then each time the poller reports
	// the pidfd readable, until it returns true.
	_ = rc.Read(func(fd uintptr) bool { return !childRunning(int(fd)) })
}

// childRunning reports whether the process behind pidfd is our child and
// has not exited yet. The pid was our child's and it is not reaped until
// awaitExit returns, so the pidfd names it; should something else in this
// process have reaped it, the pidfd names another process, waitid says
// it is not our child, and awaitExit stops.
func childRunning(pidfd int) bool {
	const pPIDFD = 3 // P_PIDFD, Linux 5.4
	// A siginfo_t is 128 bytes on every architecture; si_signo, first,
	// stays zero when no child has exited.
	var info [128 / 8]uint64
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPIDFD, uintptr(pidfd), uintptr(unsafe.Pointer(&info)),
			syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
		switch errno {
		case 0:
			return *(*int32)(unsafe.Pointer(&info)) == 0
		case syscall.EINTR:
			continue
		default:
			return false
		}
	}
}

// pidfdOpen returns a pidfd for pid, close-on-exec (pidfds always are).
func pidfdOpen(pid int) (int, error) {
	fd, _, errno := syscall.Syscall(sysPidfdOpen(), uintptr(pid), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// sysPidfdOpen is pidfd_open's number: 434 in the table shared by the
// architectures added since, offset on MIPS by each ABI's base.
func sysPidfdOpen() uintptr {
	switch runtime.GOARCH {
	case "mips", "mipsle":
		return 4000 + 434
	case "mips64", "mips64le":
		return 5000 + 434
	default:
		return 434
	}
}
