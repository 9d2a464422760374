package transport

import (
	"io"
	"os"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/quietsys"
)

// quietFile reads an OS file in non-blocking mode (a pipe in the
// runtime's poller) as os.File.Read does, waiting in the poller for
// input, but makes the read itself with quietsys: an idle connection's
// next read then does not wake the runtime's monitor thread (see package
// quietsys), which a stdio connection with one call at a time otherwise
// does on every message.
type quietFile struct {
	f  *os.File
	rc syscall.RawConn
	// readFD is q.readInto, made once so that a read allocates nothing;
	// into, n and err are the read in progress. One read at a time, as
	// the line reader reads.
	readFD func(fd uintptr) bool
	into   []byte
	n      int
	err    error
}

// newQuietFile returns f read quietly, or nil when f is not in
// non-blocking mode: a blocking read made that way would hold its
// processor for as long as it waits.
func newQuietFile(f *os.File) *quietFile {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	if !quietsys.NonBlocking(rc) {
		return nil
	}
	q := &quietFile{f: f, rc: rc}
	q.readFD = q.readInto
	return q
}

// Read reads as os.File.Read does. What the poller refuses (the file
// closed, a deadline passed) the file's own Read reports, in its words.
func (q *quietFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return q.f.Read(b)
	}
	q.into, q.n, q.err = b, 0, nil
	err := q.rc.Read(q.readFD)
	n, rerr := q.n, q.err
	q.into, q.err = nil, nil
	switch {
	case err != nil:
		return q.f.Read(b)
	case rerr != nil:
		return n, &os.PathError{Op: "read", Path: q.f.Name(), Err: rerr}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// readInto is Read's attempt; false sends it to wait in the poller.
func (q *quietFile) readInto(fd uintptr) bool {
	n, err := quietsys.Read(int(fd), q.into)
	if err == syscall.EAGAIN {
		return false
	}
	q.n, q.err = n, err
	return true
}
