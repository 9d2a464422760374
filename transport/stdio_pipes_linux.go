package transport

import (
	"os"
	"syscall"
)

// childPipe returns a pipe for one of a child's standard streams: ours, the
// end mcpwire keeps, non-blocking and in the runtime's poller as os.Pipe
// makes it; theirs, the child's end, blocking and never in the poller.
// os.Pipe would put both ends in the poller; exec then makes the child's
// end blocking again before the fork, and closing it takes it out of the
// poller: five system calls more per pipe, fifteen per start, on the way to
// the fork, for an end this process never reads or writes. childReads
// says which end is the child's (stdin: the read end).
func childPipe(childReads bool) (ours, theirs *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	o, t := p[0], p[1]
	if childReads {
		o, t = p[1], p[0]
	}
	if err := syscall.SetNonblock(o, true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	// os.Pipe's names: |0 the read end, |1 the write end.
	return os.NewFile(uintptr(o), pipeName(o == p[1])), os.NewFile(uintptr(t), pipeName(t == p[1])), nil
}

func pipeName(write bool) string {
	if write {
		return "|1"
	}
	return "|0"
}
