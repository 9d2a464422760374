//go:build linux

package transport

import (
	"syscall"
	"unsafe"
)

// PendingInput returns how many bytes written to the child's stdin it has
// not read yet (FIONREAD on the pipe). The MCP client's era probe uses it
// to tell a server that is still starting from one that read the probe
// and ignored it.
func (s *stdioStream) PendingInput() (int, bool) {
	rc, err := s.proc.stdin.SyscallConn()
	if err != nil {
		return 0, false
	}
	n, ok := 0, false
	_ = rc.Control(func(fd uintptr) {
		var v int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&v))); e == 0 {
			n, ok = int(v), true
		}
	})
	return n, ok
}
