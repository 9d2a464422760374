package transport

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// Where the process-group guard cannot run (no /bin/sh we may start),
// Linux gives every stdio child a parent-death signal instead: the kernel
// sends it SIGKILL when its parent dies, so that even a SIGKILLed mcpwire,
// which runs no Close, leaves no server behind. Processes the server
// started are not covered (the setting is not inherited across fork); they
// see the end of the stdin they share with it. While the guard runs it
// does all of that and more (it ends the whole group), so a child is then
// forked from the caller's thread, with no signal and no thread held.
//
// The kernel's notion of the parent is the thread that forked the child,
// not the process: the signal fires when that OS thread exits. The Go
// runtime ends a thread when a goroutine locked to it (LockOSThread) returns
// without unlocking, which any code in the process may do, so a child
// forked from an arbitrary thread of the runtime's pool could be killed at
// random while mcpwire runs on. Children are therefore forked from one
// thread of our own: a goroutine locked to it for as long as any child it
// started is alive, which no other goroutine can run on, and which ends
// (unlocking first) when the last of them was reaped, so an idle process
// keeps no goroutine for it.
type childStarter struct {
	mu   sync.Mutex
	live int         // children forked from the thread and not reaped, and starts under way
	reqs chan func() // to the thread's goroutine; nil while it is not running
}

var starter childStarter

// startChild starts cmd: from the caller's thread if guarded (a guard
// runs, or can start, and will be told the child's group), else with a
// parent-death signal from the starter's thread. On success the caller
// must call release exactly once, after the child was reaped.
func startChild(cmd *exec.Cmd, guarded bool) (release func(), err error) {
	if guarded {
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return func() {}, nil
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	reqs := starter.acquire()
	done := make(chan error, 1)
	reqs <- func() { done <- cmd.Start() }
	if err := <-done; err != nil {
		starter.release()
		return nil, err
	}
	return sync.OnceFunc(starter.release), nil
}

// acquire counts one more user of the thread, starting its goroutine if
// none runs, and returns the channel that reaches it.
func (s *childStarter) acquire() chan<- func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live++
	if s.reqs == nil {
		s.reqs = make(chan func())
		go runStarterThread(s.reqs)
	}
	return s.reqs
}

// release counts one user less; the last one ends the goroutine.
func (s *childStarter) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.live--
	if s.live == 0 {
		close(s.reqs)
		s.reqs = nil
	}
}

// runStarterThread runs each start on one locked OS thread until reqs is
// closed, which happens only once no child forked here is alive: only then
// may the thread go back to the pool (where it might later end).
func runStarterThread(reqs <-chan func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for start := range reqs {
		start()
	}
}
