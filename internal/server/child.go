package server

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Environment variables read by RunIfChild and cmd/mcptest-server.
const (
	// envChild set to "1" makes RunIfChild serve instead of returning.
	envChild = "MCPTEST_CHILD"
	// EnvFaults is a comma-separated fault list (see ParseFaults).
	EnvFaults = "MCPTEST_FAULTS"
	// EnvPageSize sets Options.PageSize.
	EnvPageSize = "MCPTEST_PAGE_SIZE"
	// EnvProtocolVersion sets Options.ProtocolVersion.
	EnvProtocolVersion = "MCPTEST_PROTOCOL_VERSION"
	// EnvEras sets Options.Eras: "both", "modern" or "legacy".
	EnvEras = "MCPTEST_ERAS"
)

// CrashExitCode is the exit status of a child that hit the crash fault.
const CrashExitCode = 3

// RunIfChild turns the running binary into the default server when the
// environment says so (ChildCommand sets it): it serves NewDefault on stdio,
// configured from EnvFaults, EnvPageSize and EnvProtocolVersion, and exits.
// Otherwise it returns at once. Call it first thing in TestMain so that a
// test binary can re-execute itself as a real MCP server child process
// (see ChildCommand):
//
//	func TestMain(m *testing.M) {
//		mcptest.RunIfChild()
//		goleak.VerifyTestMain(m)
//	}
func RunIfChild() {
	if os.Getenv(envChild) != "1" {
		return
	}
	os.Exit(RunStdio(os.Getenv(EnvFaults), os.Stderr))
}

// RunStdio serves the default server on stdio with the given fault list
// plus EnvPageSize and EnvProtocolVersion from the environment, and returns
// the process exit status: 0 when stdin ended, 2 for bad configuration
// (explained on stderr), 1 for other failures. It is the body of
// RunIfChild and of cmd/mcptest-server.
func RunStdio(faults string, stderr io.Writer) int {
	opts, err := optionsFromEnv(faults)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	fmt.Fprintf(stderr, "mcptest: serving the default server on stdio (faults: %q)\n", faults)
	if err := NewDefault(opts).ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(stderr, "mcptest:", err)
		return 1
	}
	return 0
}

func optionsFromEnv(faults string) (*Options, error) {
	opts := &Options{ProtocolVersion: os.Getenv(EnvProtocolVersion)}
	fs, err := ParseFaults(faults)
	if err != nil {
		return nil, err
	}
	opts.Faults = fs
	if v := os.Getenv(EnvPageSize); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("mcptest: %s=%q is not a page size (want an integer >= 0)", EnvPageSize, v)
		}
		opts.PageSize = n
	}
	if v := os.Getenv(EnvEras); v != "" {
		e, err := parseEras(v)
		if err != nil {
			return nil, fmt.Errorf("mcptest: %s: %w", EnvEras, err)
		}
		opts.Eras = e
	}
	return opts, nil
}

// ChildProcess describes how to start the default server as a child
// process by re-executing the running test binary (see RunIfChild). Its
// fields map one to one onto the stdio transport's:
//
//	transport.Command{Command: p.Path, Args: p.Args, Env: p.Env}
type ChildProcess struct {
	// Path is the executable (the running binary, absolute).
	Path string
	// Args are the arguments after the program name (none).
	Args []string
	// Env holds only the variables that select child mode and its faults;
	// a stdio transport adds them to the child's environment. Add
	// EnvPageSize or EnvProtocolVersion here to configure the child.
	Env map[string]string
}

// ChildCommand describes a re-execution of the running binary as the
// default server with the given faults (each in ParseFault syntax). The
// binary's TestMain must call RunIfChild.
func ChildCommand(faults ...string) ChildProcess {
	path, err := os.Executable()
	if err != nil {
		path = os.Args[0]
	}
	return ChildProcess{
		Path: path,
		Env:  map[string]string{envChild: "1", EnvFaults: strings.Join(faults, ",")},
	}
}

// Command returns an exec.Cmd for the child with the parent's environment
// plus Env, for tests that drive the process by hand.
func (c ChildProcess) Command(ctx context.Context) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Env = os.Environ()
	for k, v := range c.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}
