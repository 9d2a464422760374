// Package quietsys makes the system calls that cannot block (a read or
// a write on a descriptor in non-blocking mode, a poll that does not
// wait) without telling the Go scheduler, as syscall.RawSyscall does.
//
// Why: every syscall.Syscall enters the scheduler's system-call state,
// and when the process was idle long enough for the runtime's monitor
// thread (sysmon) to go to its deep sleep, that entry wakes it. A stdio
// connection with one call at a time goes idle between every request and
// its answer, so each call woke the monitor once or twice, and it then
// polled every 20 µs until the process went idle again: a quarter of
// `mcpwire serve --stdio`'s CPU per sequential call (bench/NOTES.md, the
// twentieth round). A call that cannot block has no use for that state:
// the scheduler needs it only to hand the processor on while a thread
// waits in the kernel.
//
// A read or write made this way on a descriptor in blocking mode would
// hold its processor, and stop the process at the next collection, for as
// long as it waits. So Read and Write use preadv2 and pwritev2 with
// RWF_NOWAIT, which refuse to wait whatever the descriptor's mode (pipes
// take the flag on Linux 6 kernels; older ones refuse it with
// EOPNOTSUPP). Where the kernel does not take them, Read and Write ask
// the descriptor's mode at every call (an fcntl, itself made quietly) and
// go through the scheduler when it is blocking.
//
// Linux only; elsewhere the package is empty and its callers read and
// write as the os package does.
package quietsys
