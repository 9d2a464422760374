//go:build unix

package transport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// stderrGrace bounds how long, after the child exited, the exit error waits
// for the rest of its stderr. A process the child started may hold stderr
// open for ever; the tail is then what had arrived.
const stderrGrace = 500 * time.Millisecond

// reapTimeout is the least Close waits for a SIGKILLed child to be reaped.
// SIGKILL cannot be refused, but tearing a large process down takes the
// kernel a moment; only a process stuck in the kernel outlasts this.
const reapTimeout = 5 * time.Second

// process is one running stdio server and the pipes to it. The stream's
// read goroutine reads stdout, its write goroutine writes stdin; process
// owns everything else: the waiter goroutine (reaps the child), the stderr
// drain goroutine, and the shutdown sequence.
type process struct {
	cfg     *Command // a copy, immune to later changes
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	stderr  *os.File
	log     *stderrLog
	exited  chan struct{} // closed once the child was reaped; state is set
	drained chan struct{} // closed when the stderr drain goroutine ends
	closing chan struct{} // closed when Close begins
	state   *os.ProcessState
}

// stdioStream is the stream of a stdio server: a JSON-lines stream whose
// Close shuts the process down.
type stdioStream struct {
	*lineStream
	proc *process
}

func startProcess(c *Command, path string, env []string) (*stdioStream, error) {
	cfg := *c
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		closeAll(stdinR, stdinW)
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, err)
	}
	stderrR, stderrW, err := os.Pipe()
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	startErr := cmd.Start()
	// The child has its own copies of its ends (or failed to start).
	closeAll(stdinR, stdoutW, stderrW)
	if startErr != nil {
		closeAll(stdinW, stdoutR, stderrR)
		return nil, fmt.Errorf("transport: start %q: %w", c.Command, startErr)
	}

	p := &process{
		cfg:     &cfg,
		cmd:     cmd,
		stdin:   stdinW,
		stdout:  stdoutR,
		stderr:  stderrR,
		log:     &stderrLog{size: stderrKeep, tee: c.Stderr},
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
		closing: make(chan struct{}),
	}
	go p.wait()
	go p.drainStderr()
	s := newLineStream(stdoutR, stdinW, lineStreamConfig{
		maxFrameSize: c.MaxMessageSize,
		ended:        p.endedError,
		close:        p.shutdown,
		lazyRead:     true, // stdout is an OS pipe: the kernel buffers
	})
	return &stdioStream{lineStream: s, proc: p}, nil
}

// wait reaps the child. With *os.File stdio, exec starts no copying
// goroutines, so Wait returns as soon as the child exits.
func (p *process) wait() {
	_ = p.cmd.Wait() // the status is in ProcessState
	p.state = p.cmd.ProcessState
	close(p.exited)
}

// drainStderr reads stderr until it ends or is closed.
func (p *process) drainStderr() {
	p.log.drain(p.stderr)
	close(p.drained)
}

func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// endedError runs on the stream's read goroutine when stdout ended while
// the stream was open, and explains why: the exit status and stderr tail.
func (p *process) endedError(readErr error) error {
	timer := time.NewTimer(p.cfg.closeTimeout())
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		return &ExitError{Command: p.cfg.Command, ExitCode: -1, Running: true, StderrTail: stderrTail(p.log.bytes())}
	case <-p.closing:
		return errStreamClosed
	}
	grace := time.NewTimer(stderrGrace)
	defer grace.Stop()
	select {
	case <-p.drained:
	case <-grace.C:
	case <-p.closing:
	}
	e := p.exitError()
	if readErr != nil && !errors.Is(readErr, io.EOF) {
		return fmt.Errorf("transport: reading the output of %q: %v; %w", p.cfg.Command, readErr, e)
	}
	return e
}

// exitError describes the exited child.
func (p *process) exitError() *ExitError {
	e := &ExitError{Command: p.cfg.Command, ExitCode: p.state.ExitCode(), StderrTail: stderrTail(p.log.bytes())}
	if ws, ok := p.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.Signal = ws.Signal().String()
	}
	return e
}

// shutdown is the stream's close: stdin closed, CloseTimeout, SIGTERM to
// the group, KillTimeout, SIGKILL, then at least reapTimeout. It returns once the child
// is reaped and the stderr goroutine ended, or with an error if even
// SIGKILL did not end the child in time.
func (p *process) shutdown() error {
	close(p.closing)
	// EOF on the child's stdin asks it to exit; it also ends a write
	// blocked on a full pipe.
	p.stdin.Close()
	var err error
	if !p.waitExit(p.cfg.closeTimeout()) {
		p.signalGroup(syscall.SIGTERM)
		if !p.waitExit(p.cfg.killTimeout()) {
			p.signalGroup(syscall.SIGKILL)
			if !p.waitExit(max(p.cfg.killTimeout(), reapTimeout)) {
				err = fmt.Errorf("transport: server %q (pid %d) did not exit after SIGKILL", p.cfg.Command, p.cmd.Process.Pid)
			}
		}
	}
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

// signalGroup signals the child's process group, but only while the child
// has not been reaped: after that its pid (and group id) may be reused.
func (p *process) signalGroup(sig syscall.Signal) {
	if p.hasExited() {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, sig)
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}
