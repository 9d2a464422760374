//go:build unix

package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// stderrGrace bounds how long, after the child exited, the exit error waits
// for the rest of its stderr. A process the child started may hold stderr
// open for ever; the tail is then what had arrived.
const stderrGrace = 500 * time.Millisecond

// reapTimeout is the least Close waits for a SIGKILLed child to be reaped.
// SIGKILL cannot be refused, but tearing a large process down takes the
// kernel a moment; only a process stuck in the kernel outlasts this.
const reapTimeout = 5 * time.Second

// process is one running stdio server and the pipes to it. The stream reads
// stdout and writes stdin; process owns everything else: the stderr drain,
// reaping the child, and the shutdown sequence.
//
// An idle connection costs no goroutine here on Linux: one goroutine drains
// the stderr of every child without a tee (stderrPoller). Elsewhere, or
// with a tee, the connection has one, parked in the runtime's poller on
// stderr with no buffer of its own (stderrLog.drain). On Linux that same
// goroutine watches a pidfd of the child, and its exit starts the reaping
// (and then ends the stdout reader at the end of what the pipe holds, even
// if a process the child started holds stdout open). Elsewhere nobody
// waits for the child while it runs: reaping starts when someone needs
// the exit status (stdout ended, or Close), or when stderr ends. On Linux
// the reaper waits in the poller on a pidfd rather than in a blocked wait
// system call, which would hold an OS thread per child.
type process struct {
	name string // the configured command, for errors
	// secrets are the values of the configured Env, taken out of the
	// stderr tail and of the decode errors of what it prints on stdout:
	// a server that fails often says which key it was given ("invalid
	// API key sk-…"), and Env's values never appear in errors.
	secrets      []string
	closeTimeout time.Duration
	killTimeout  time.Duration
	proc         *os.Process
	released     func()      // tells the starter the child was reaped (stdio_start_*.go)
	guarded      atomic.Bool // the guard knows the group (stdio_guard_unix.go)
	abandoned    atomic.Bool // Close ends the child at once (stdio_abandon_unix.go)
	stdin        *os.File
	stdout       *os.File
	stderr       *os.File
	stderrFd     int    // its descriptor while stderrPolling drains it, or -1
	pidfd        int    // a pidfd while stderrPolling watches for the exit, or -1
	exitSeen     func() // tells the stdout reader the child was reaped, or nil
	log          stderrLog
	reaping      atomic.Bool   // someone reaps the child, or will
	exited       chan struct{} // closed once the child was reaped; state is set
	drained      chan struct{} // closed when the stderr drain ends
	closing      chan struct{} // closed when Close begins
	state        *os.ProcessState
}

// stdioStream is the stream of a stdio server: a JSON-lines stream whose
// Close shuts the process down.
type stdioStream struct {
	*lineStream
	proc *process
}

func startProcess(c *Command, path string, env []string) (*stdioStream, error) {
	stdinW, stdinR, err := childPipe(true)
	if err != nil {
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, err)
	}
	stdoutR, stdoutW, err := childPipe(false)
	if err != nil {
		closeAll(stdinR, stdinW)
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, err)
	}
	stderrR, stderrW, err := childPipe(false)
	if err != nil {
		closeAll(stdinR, stdinW, stdoutR, stdoutW)
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, err)
	}
	// Not exec.CommandContext: the child must outlive Connect's ctx.
	cmd := exec.Command(path, c.Args...)
	cmd.Args[0] = c.Command
	cmd.Env = env
	cmd.Dir = c.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	// A group of its own, so that Close's signals reach whatever it starts.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	release, startErr := startChild(cmd, guard.available())
	// The child has its own copies of its ends (or failed to start).
	closeAll(stdinR, stdoutW, stderrW)
	if startErr != nil {
		closeAll(stdinW, stdoutR, stderrR)
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, startErr)
	}

	// Only the *os.Process is kept: the Cmd, with the child's arguments
	// and environment, is garbage from here on.
	p := &process{
		name:         c.Command,
		secrets:      envSecrets(c.Env),
		closeTimeout: c.closeTimeout(),
		killTimeout:  c.killTimeout(),
		proc:         cmd.Process,
		released:     release,
		stdin:        stdinW,
		stdout:       stdoutR,
		stderr:       stderrR,
		stderrFd:     -1,
		pidfd:        -1,
		log:          stderrLog{size: stderrKeep, tee: c.Stderr},
		exited:       make(chan struct{}),
		drained:      make(chan struct{}),
		closing:      make(chan struct{}),
	}
	// Should mcpwire die from here on, the guard ends the group.
	p.guarded.Store(guard.watch(cmd.Process.Pid))
	// exitSeen is set before anything that may reap the child starts.
	out := newReadyPipe(stdoutR)
	if n, ok := out.(interface{ serverExited() }); ok {
		p.exitSeen = n.serverExited
	}
	if c.Stderr != nil || !stderrPolling.add(p) {
		go p.watch()
	}
	// The child's exit ends the stream even while a process it started
	// holds stdout open (where that can be watched for).
	stderrPolling.watchExit(p)
	parker, _ := out.(sourceParker)
	s := newLineStream(out, stdinW, lineStreamConfig{
		maxFrameSize: c.MaxMessageSize,
		ended:        p.endedError,
		close:        p.shutdown,
		lazyRead:     true, // stdout is an OS pipe: the kernel buffers
		deadlines:    stdoutR,
		parker:       parker,
		secrets:      p.secrets,
	})
	return &stdioStream{lineStream: s, proc: p}, nil
}

// watch is the process's own goroutine, when it has one: it drains stderr
// until it ends, then, unless someone else already does, reaps the child
// (a child that closed its stderr is still running or about to exit).
func (p *process) watch() {
	p.log.drain(p.stderr)
	close(p.drained)
	if p.reaping.CompareAndSwap(false, true) {
		p.wait()
	}
}

// stderrEnded is watch's ending for a child whose stderr the shared
// stderrPolling drained.
func (p *process) stderrEnded() {
	close(p.drained)
	p.startReaper()
}

// startReaper makes sure the child gets reaped, on a goroutine of its own
// unless the stderr drain already took it on.
func (p *process) startReaper() {
	if p.reaping.CompareAndSwap(false, true) {
		go p.wait()
	}
}

// wait reaps the child. It runs once, on the goroutine that set reaping.
func (p *process) wait() {
	awaitExit(p.proc)
	p.state, _ = p.proc.Wait() // nil on error: exitError copes
	// An empty group (not even a zombie) has ended, and its id may be
	// reused: out of the guard's list. Otherwise Close does that.
	if syscall.Kill(-p.proc.Pid, 0) == syscall.ESRCH {
		p.unguard()
	}
	p.released()
	close(p.exited)
	if p.exitSeen != nil {
		p.exitSeen()
	}
}

// unguard takes the group off the guard's list, once.
func (p *process) unguard() {
	if p.guarded.CompareAndSwap(true, false) {
		guard.forget(p.proc.Pid)
	}
}

func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// endedError runs on whichever goroutine reads the stream (the read
// goroutine, or a caller in its turn) when stdout ended while the stream
// was open, and explains why: the exit status and stderr tail.
func (p *process) endedError(readErr error) error {
	e, err := p.awaitExitError()
	if err != nil {
		return err
	}
	if e.Running {
		return e
	}
	if readErr != nil && !errors.Is(readErr, io.EOF) {
		return fmt.Errorf("transport: reading the output of %q: %v; %w", p.name, readErr, e)
	}
	return e
}

// writeError explains a write that failed because the child's stdin has
// no reader: the child exited (or closed its stdin), and the caller learns
// its exit status and stderr tail rather than a bare "broken pipe".
func (p *process) writeError(writeErr error) error {
	e, err := p.awaitExitError()
	if err != nil {
		return err
	}
	if e.Running {
		return fmt.Errorf("transport: server %q closed its stdin but is still running: %w", p.name, writeErr)
	}
	return fmt.Errorf("transport: writing to %q: %w; %w", p.name, syscall.EPIPE, e)
}

// awaitExitError waits up to CloseTimeout for the child to be reaped and
// describes its end (Running if it did not end in time), or returns
// errStreamClosed if Close began meanwhile.
func (p *process) awaitExitError() (*ExitError, error) {
	p.startReaper()
	timer := time.NewTimer(p.closeTimeout)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		return &ExitError{Command: p.name, ExitCode: -1, Running: true, StderrTail: p.stderrTail()}, nil
	case <-p.closing:
		return nil, errStreamClosed
	}
	grace := time.NewTimer(stderrGrace)
	defer grace.Stop()
	select {
	case <-p.drained:
	case <-grace.C:
	case <-p.closing:
	}
	return p.exitError(), nil
}

// exitError describes the exited child. Its state is nil only if waiting
// failed, as when something else in this process reaped the child.
func (p *process) exitError() *ExitError {
	e := &ExitError{Command: p.name, ExitCode: p.state.ExitCode(), StderrTail: p.stderrTail()}
	if p.state == nil {
		return e
	}
	if ws, ok := p.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.Signal = ws.Signal().String()
	}
	return e
}

// stderrTail is the end of the child's stderr for an ExitError, without
// the values of the configured Env.
func (p *process) stderrTail() string {
	log := p.log.bytes()
	if len(p.secrets) == 0 {
		return stderrTail(log)
	}
	return stderrTail([]byte(scrubSecrets(string(log), p.secrets)))
}

// shutdown is the stream's close: stdin closed, CloseTimeout, SIGTERM to
// the group, KillTimeout, SIGKILL to the group, then at least reapTimeout.
// A child that exits on its own but leaves processes of its group running
// skips the rest of the first wait: they get SIGTERM at once, and SIGKILL
// after KillTimeout. It returns once the child is reaped, no process of
// its group runs (or was sent SIGKILL) and the stderr goroutine ended, or
// with an error if even SIGKILL did not end the child in time. An
// abandoned child gets SIGTERM at once (see stopTimeouts).
func (p *process) shutdown() error {
	close(p.closing)
	p.startReaper()
	// EOF on the child's stdin asks it to exit; it also ends a write
	// blocked on a full pipe.
	p.stdin.Close()
	closeWait, killWait := p.stopTimeouts()
	var err error
	if !p.waitExit(closeWait) || groupRunning(p.proc.Pid) {
		p.signalGroup(syscall.SIGTERM)
		if !p.waitGroup(killWait) {
			p.signalGroup(syscall.SIGKILL)
			if !p.waitExit(max(killWait, reapTimeout)) {
				err = fmt.Errorf("transport: server %q (pid %d) did not exit after SIGKILL", p.name, p.proc.Pid)
			}
		}
	}
	if err == nil {
		// The child was reaped and the rest of its group ended or got
		// SIGKILL (which cannot be refused): nothing left to guard.
		p.unguard()
	}
	stderrPolling.unwatchExit(p)
	// Let the stderr drain catch the child's last words, unless a process
	// the child started keeps the pipe open; then end the readers.
	if err == nil {
		grace := time.NewTimer(stderrGrace)
		select {
		case <-p.drained:
		case <-grace.C:
		}
		grace.Stop()
	}
	p.stdout.Close()
	if stderrPolling.remove(p) {
		close(p.drained)
	}
	p.stderr.Close()
	if err == nil {
		<-p.drained
	}
	return err
}

// waitExit waits up to d for the child to be reaped.
func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// waitGroup waits up to d for the child to be reaped and then for no
// other process of its group to run. The kernel tells when the child
// exits; the rest of the group it does not, so that is polled, at most
// every 50 ms.
func (p *process) waitGroup(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		return false
	}
	poll := time.NewTimer(0)
	defer poll.Stop()
	for delay := time.Millisecond; groupRunning(p.proc.Pid); delay = min(2*delay, 50*time.Millisecond) {
		poll.Reset(delay)
		select {
		case <-poll.C:
		case <-t.C:
			return false
		}
	}
	return true
}

// signalGroup signals the child's process group (its id is the child's
// pid). Once the child has been reaped its pid may be reused, but not as
// a group id while the group lives (POSIX keeps a process group id from
// reuse until the group's last process leaves it), so the group is
// signalled then only while a process of it runs.
func (p *process) signalGroup(sig syscall.Signal) {
	if p.hasExited() && !groupRunning(p.proc.Pid) {
		return
	}
	_ = syscall.Kill(-p.proc.Pid, sig)
}

// Write sends msg (see lineStream.Write). A write into a pipe nobody reads
// means the child exited or closed its stdin: the error then names the
// exit status and stderr tail, like Read's.
func (s *stdioStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := s.lineStream.Write(ctx, msg)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		return s.proc.writeError(err)
	}
	return err
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}
