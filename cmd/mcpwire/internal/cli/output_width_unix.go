//go:build linux || darwin || freebsd || netbsd || openbsd

package cli

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// winsize is struct winsize of <sys/ioctl.h>.
type winsize struct {
	Row, Col, Xpixel, Ypixel uint16
}

// terminalWidth asks the terminal behind f for its width (TIOCGWINSZ), then
// falls back to $COLUMNS, then to 0 (meaning DefaultWidth).
func terminalWidth(f *os.File) int {
	var ws winsize
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	if errno == 0 && ws.Col > 0 {
		return int(ws.Col)
	}
	return columnsEnv()
}

func columnsEnv() int {
	n, err := strconv.Atoi(os.Getenv("COLUMNS"))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
