//go:build linux || darwin || freebsd || netbsd || openbsd

package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY reports whether f is a terminal someone may answer on: a
// character device that answers a terminal's ioctl, which /dev/null (a
// character device too) does not.
func isTTY(f *os.File) bool {
	var ws winsize
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	return errno == 0
}
