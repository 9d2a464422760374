//go:build unix

package transport

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"sync"
	"syscall"
)

// groupGuard is one tiny process per mcpwire process that ends the
// process groups of its stdio servers when mcpwire dies without a Close
// (SIGKILL, a crash, an OOM kill).
//
// The parent-death signal (Linux only, and used only where the guard
// cannot run) ends a server itself, but not the processes the server
// started: a shell's background job, a language runtime's worker, a
// wrapper's child. They are reparented to init and would run on for
// ever. The guard is a shell reading a pipe whose only writer is mcpwire
// (the write end is close-on-exec, so no other child holds it past its
// exec). mcpwire writes "+ PGID" when a server's group starts and
// "- PGID" once Close ended it. When mcpwire dies, for whatever reason,
// the kernel closes the write end, the shell's read ends, and it sends
// SIGKILL to every group it still knows.
//
// Why not the kernel's own rules: an orphaned process group with a
// stopped member gets SIGHUP and SIGCONT, but whether the group counts as
// orphaned depends on which session the new parent (init, a subreaper, a
// container's first process) is in, and SIGHUP can be ignored. A pid
// namespace would end everything with its first process, but needs user
// namespaces, which many systems refuse, and changes what the server
// sees. The guard needs neither and works on every unix.
//
// One guard for all servers, started with the first of them, rather than
// one per server: starting a shell per connect cost a few percent of a
// stdio connect, while a line into a pipe costs a write. The guard runs
// in a session of its own, with no terminal, and ignores the terminal's
// signals: a Ctrl-C aimed at mcpwire's foreground group does not reach
// it, so that mcpwire's Close ends the servers in order, and should
// mcpwire die anyway the guard still finishes the job. It holds nothing
// of mcpwire's but the pipe: stdout and stderr closed, directory "/".
//
// A group id is forgotten once its group has ended (Close ended it, or
// the server was reaped and nothing of its group runs), so that a group
// of someone else's that later gets the same id is not killed. What stays
// is a group that empties on its own after its server exited, before
// Close: should its id be reused before Close and mcpwire then die, the
// guard kills the newcomer. Ids are handed out in sequence up to the
// kernel's pid_max before any is reused, which makes that unlikely.
// A process that leaves its group (setsid, setpgid: a daemon) is out of
// reach, as it is of Close's signals.
//
// Where /bin/sh cannot start, servers run unguarded, as before. Should
// the guard die (someone killed it), the next connect starts a new one
// and tells it every group still known.
type groupGuard struct {
	mu      sync.Mutex
	proc    *os.Process // the guard; nil before the first start, or after a failed one
	pipe    *os.File    // its stdin's write end
	raw     syscall.RawConn
	failed  bool        // /bin/sh cannot start: no further tries
	checked bool        // available looked at the shell
	shell   string      // the shell to run; "" means guardShell (tests set others)
	groups  map[int]int // pgid → how many servers of this process hold it
	buf     []byte      // a message being written; guarded by mu
}

var guard groupGuard

// guardShell is the shell the guard runs in.
const guardShell = "/bin/sh"

// guardScript tracks the group ids it is told, and on the end of its
// stdin SIGKILLs every group still known ("kill -PGID" signals a group;
// kill goes on past a group that no longer exists). The list is a string
// of " id " entries, edited with parameter expansions, so that the shell
// forks nothing while mcpwire runs.
const guardScript = `trap '' INT HUP QUIT TSTP TTIN TTOU
g=' '
while read -r op id; do
	case $op in
	+) g="$g$id " ;;
	-) case $g in *" $id "*) g="${g%% $id *} ${g#* $id }" ;; esac ;;
	esac
done
set --
for id in $g; do set -- "$@" "-$id"; done
[ $# -eq 0 ] || kill -s KILL -- "$@"`

// available reports whether a guard runs or can be started, without
// starting one: watch starts it right after the fork, while the child
// starts up. It is false only once /bin/sh proved unusable, or is not an
// executable file. A child forked while it is true gets no parent-death
// signal: should the guard then fail to start for another reason (out of
// processes, say), that child runs unguarded, as every child did before
// the guard.
func (g *groupGuard) available() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.proc != nil {
		return true
	}
	if !g.failed && !g.checked {
		g.checked = true
		fi, err := os.Stat(g.shellPath())
		g.failed = err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0
	}
	return !g.failed
}

func (g *groupGuard) shellPath() string {
	if g.shell != "" {
		return g.shell
	}
	return guardShell
}

// watch asks the guard to end group pgid should mcpwire die, starting the
// guard if none runs. It reports whether the group is guarded; if so, the
// caller must call forget once the group has ended.
func (g *groupGuard) watch(pgid int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.failed {
		return false
	}
	if g.groups == nil {
		g.groups = make(map[int]int)
	}
	g.groups[pgid]++
	if g.proc != nil && g.send('+', pgid) {
		return true
	}
	// No guard yet, or it died: start one and tell it every group.
	if !g.start() {
		delete(g.groups, pgid)
		return false
	}
	return true
}

// forget tells the guard group pgid has ended. Only ever once per watch.
func (g *groupGuard) forget(pgid int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.groups[pgid] <= 1 {
		delete(g.groups, pgid)
	} else {
		g.groups[pgid]--
	}
	if g.proc != nil {
		// A dead guard is replaced at the next watch, which tells the
		// new one only the groups still held.
		g.send('-', pgid)
	}
}

// send writes one "+ PGID" or "- PGID" line, in one try that never
// waits: the write end is non-blocking, and a line far below PIPE_BUF
// goes in whole or not at all. A failure means the guard is gone, or
// stopped with a full pipe, which would otherwise hold every connect and
// Close behind mu: it is ended and reaped, and false returned.
func (g *groupGuard) send(op byte, pgid int) bool {
	g.buf = strconv.AppendInt(append(g.buf[:0], op, ' '), int64(pgid), 10)
	g.buf = append(g.buf, '\n')
	var n int
	var werr error
	err := g.raw.Write(func(fd uintptr) bool {
		n, werr = syscall.Write(int(fd), g.buf)
		return true // no waiting in the poller, even on EAGAIN
	})
	if err == nil && werr == nil && n == len(g.buf) {
		return true
	}
	g.drop()
	return false
}

// drop ends and reaps the guard (its stdin gone, it would otherwise kill
// the groups it knows), so that nothing of it stays, not even a zombie.
func (g *groupGuard) drop() {
	_ = g.proc.Signal(syscall.SIGKILL)
	_, _ = g.proc.Wait()
	g.pipe.Close()
	g.proc, g.pipe, g.raw = nil, nil, nil
}

// start starts a guard told every group of g.groups, or marks g failed.
func (g *groupGuard) start() bool {
	r, w, err := os.Pipe()
	if err != nil {
		return false // out of descriptors, say: try again next time
	}
	// Setsid: a session and group of its own, out of reach of the
	// terminal's signals and of any signal to mcpwire's group.
	proc, err := os.StartProcess(g.shellPath(), []string{"mcpwire-guard", "-c", guardScript}, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []*os.File{r, nil, nil},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	r.Close()
	if err != nil {
		w.Close()
		// No shell, or not one we may run: no further tries. Anything
		// else (out of processes, say) may pass: try again next time.
		g.failed = errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
		return false
	}
	raw, err := w.SyscallConn()
	if err != nil {
		g.proc, g.pipe = proc, w
		g.drop()
		return false
	}
	g.proc, g.pipe, g.raw = proc, w, raw
	for pgid, n := range g.groups {
		for range n {
			if !g.send('+', pgid) {
				return false
			}
		}
	}
	return true
}
