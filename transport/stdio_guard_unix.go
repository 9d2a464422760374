//go:build unix

package transport

import (
	"os"
	"sync"
	"syscall"
)

// groupGuard is a tiny process in a server's process group that ends the
// group when mcpwire dies without a Close (SIGKILL, a crash, an OOM kill).
//
// The parent-death signal (Linux only) ends the server itself, but not
// the processes the server started: a shell's background job, a
// language runtime's worker, a wrapper's child. They are reparented to
// init and would run on for ever. The guard is a shell blocked reading a
// pipe whose only writer is mcpwire; the pipe is close-on-exec here, so
// no other child holds it. When mcpwire dies, for whatever reason, the
// kernel closes the write end, the shell's read ends, and it sends SIGKILL
// to its own process group: the server's whole group, itself included.
//
// Why not the kernel's own rules: an orphaned process group with a
// stopped member gets SIGHUP and SIGCONT, but whether the group counts as
// orphaned depends on which session the new parent (init, a subreaper, a
// container's first process) is in, and SIGHUP can be ignored. A pid
// namespace would end everything with its first process, but needs user
// namespaces, which many systems refuse, and changes what the server
// sees. The guard needs neither and works on every unix.
//
// While the guard lives the group is never empty, so its id cannot be
// reused by an unrelated group; the guard is a member, so its kill
// cannot reach anything else. A process that leaves the group (setsid,
// setpgid: a daemon) is out of reach, as it is of Close's signals.
//
// The guard costs one small process per stdio server and one start of
// /bin/sh after the server's (a fraction of a millisecond; the server
// starts meanwhile). Where it cannot start, the server runs unguarded, as
// before.
type groupGuard struct {
	proc *os.Process
	pipe *os.File // the write end; never written, only held
	once sync.Once
}

// guardScript blocks until the pipe on stdin ends, then kills the group.
// "kill 0" is the caller's process group (POSIX).
const guardScript = "read x; kill -s KILL 0"

// startGuard starts a guard in process group pgid, or returns nil.
func startGuard(pgid int) *groupGuard {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	// stdout and stderr closed: the guard writes nothing, and must hold
	// none of the server's pipes. Dir "/" so that it keeps no directory
	// busy.
	proc, err := os.StartProcess("/bin/sh", []string{"mcpwire-guard", "-c", guardScript}, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []*os.File{r, nil, nil},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pgid: pgid},
	})
	r.Close()
	if err != nil {
		w.Close()
		return nil
	}
	return &groupGuard{proc: proc, pipe: w}
}

// stop ends and reaps the guard (SIGKILL to it alone, not to the group),
// once; nil does nothing. Close calls it when the server is done with, so
// that the guard does not count as a process of the group still running.
func (g *groupGuard) stop() {
	if g == nil {
		return
	}
	g.once.Do(func() {
		_ = g.proc.Kill()
		_, _ = g.proc.Wait()
		g.pipe.Close()
	})
}
