package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/bench/serverproc"
)

// gwProc is a gateway process of the gateway workload, in a process group
// of its own so that stopping it ends the servers it spawned too.
type gwProc struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
	exited chan struct{}
}

// tailBuffer keeps the last bytes written to it: a gateway's stderr, for
// the error when it fails.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 4096 {
		b.buf = b.buf[len(b.buf)-2048:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.TrimSpace(string(b.buf))
	if len(s) > 400 {
		s = "…" + s[len(s)-400:]
	}
	return s
}

// startGwProc starts argv; when urlFrom is set, stderr is scanned for the
// line it recognises and the URL it returns, else the URL is given and the
// process is ready once its port accepts connections.
func startGwProc(argv []string, url string, urlFrom func(line string) (string, bool)) (*gwProc, string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = io.Discard
	p := &gwProc{cmd: cmd, stderr: &tailBuffer{}, exited: make(chan struct{})}
	found := make(chan string, 1)
	var stderrPipe *io.PipeWriter
	if urlFrom == nil {
		cmd.Stderr = p.stderr
	} else {
		r, w := io.Pipe()
		cmd.Stderr, stderrPipe = w, w
		go func() {
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				p.stderr.Write(append(sc.Bytes(), '\n'))
				if u, ok := urlFrom(sc.Text()); ok {
					select {
					case found <- u:
					default:
					}
				}
			}
			io.Copy(p.stderr, r)
		}()
	}
	if err := cmd.Start(); err != nil {
		if stderrPipe != nil {
			stderrPipe.Close()
		}
		return nil, "", err
	}
	go func() {
		cmd.Wait()
		if stderrPipe != nil {
			stderrPipe.Close() // ends the scanner
		}
		close(p.exited)
	}()
	deadline := time.After(60 * time.Second)
	if urlFrom != nil {
		select {
		case u := <-found:
			return p, u, nil
		case <-p.exited:
			return nil, "", fmt.Errorf("%s exited: %s", filepath.Base(argv[0]), p.stderr.String())
		case <-deadline:
			p.stop()
			return nil, "", fmt.Errorf("%s did not say where it serves within 60s: %s", filepath.Base(argv[0]), p.stderr.String())
		}
	}
	// Ready when the port accepts a connection: the node gateways print
	// different lines, so the harness asks the socket.
	host := strings.TrimPrefix(url, "http://")
	host, _, _ = strings.Cut(host, "/")
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
			c.Close()
			return p, url, nil
		}
		select {
		case <-tick.C:
		case <-p.exited:
			return nil, "", fmt.Errorf("%s exited: %s", filepath.Base(argv[0]), p.stderr.String())
		case <-deadline:
			p.stop()
			return nil, "", fmt.Errorf("%s did not listen on %s within 60s: %s", filepath.Base(argv[0]), host, p.stderr.String())
		}
	}
}

// stop ends the process group: SIGTERM, then SIGKILL after 5s.
func (p *gwProc) stop() {
	if p == nil {
		return
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
	// The group may outlive its leader (a gateway's children).
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// rssKiB is the gateway process's resident memory (without its children).
func (p *gwProc) rssKiB() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			f := strings.Fields(string(rest))
			if len(f) > 0 {
				return strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// freePort asks the kernel for a free loopback port, for the gateways that
// want one named.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// npmInstall is the command that installs the npm gateways.
const npmInstall = "cd bench/node && npm ci --no-audit --no-fund"

// nodeBin is an npm gateway's command, or an error saying how to install it.
func nodeBin(name string) (string, error) {
	bin := filepath.Join(serverproc.ModuleDir(), "node", "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("the npm package %s is not installed (%s)", name, npmInstall)
	}
	return bin, nil
}
