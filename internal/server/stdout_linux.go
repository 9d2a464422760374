package server

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// CuttableOutput returns a file that writes where out does and whose
// blocked write a deadline can cut short, and how to release it; out
// itself when that cannot be had, or when out is cut short already.
//
// A child process inherits its stdout pipe in blocking mode (os/exec
// hands it over so), and a blocking write cannot be cut short: the line
// stream would then write through a goroutine per line (see lineStream),
// a hand-off on every reply. Putting out itself in non-blocking mode is
// not an option: the mode belongs to the open file, which the child's
// stderr may share (2>&1), and stderr writes would then fail with EAGAIN.
// Opening the pipe again through /proc gives a file of its own, whose
// mode touches nothing else. Linux only: elsewhere /dev/fd duplicates the
// descriptor, file and mode included.
func CuttableOutput(out *os.File) (*os.File, func() error) {
	keep := func() error { return nil }
	if out.SetWriteDeadline(time.Time{}) == nil {
		return out, keep // in the runtime's poller already
	}
	fi, err := out.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return out, keep // a terminal, a regular file, a socket
	}
	f := ReopenPipe(out, syscall.O_WRONLY)
	if f == nil {
		return out, keep // no /proc, or no reader left (ENXIO)
	}
	return f, f.Close
}

// ReopenPipe opens the pipe behind p again through /proc, for reading
// (O_RDONLY) or writing (O_WRONLY), as a file of its own in the runtime's
// poller: its non-blocking mode touches neither p nor whoever shares p's
// open file (a sibling process, stderr with 2>&1). It returns nil when
// that cannot be had. p must be a blocking pipe, whose Fd this calls.
func ReopenPipe(p *os.File, access int) *os.File {
	path := "/proc/self/fd/" + strconv.FormatUint(uint64(p.Fd()), 10)
	fd, err := syscall.Open(path, access|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), p.Name()) // non-blocking: in the poller
	if f.SetDeadline(time.Time{}) != nil {
		_ = f.Close()
		return nil
	}
	return f
}
