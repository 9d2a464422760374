package cli

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// The reference deployment of docs/serve.md: HAProxy, round robin, in
// front of three "mcpwire serve --listen" replicas that share a session
// key, each with the built-in example server as its upstream.

const replicaCount = 3

// haproxyConfig is the config docs/serve.md shows, with the test's
// addresses. The frontend binds the listener the test hands over as fd 3,
// so that it accepts from the moment haproxy runs.
func haproxyConfig(replicas []string) string {
	var servers strings.Builder
	for i, addr := range replicas {
		fmt.Fprintf(&servers, "    server r%d %s check inter 1s fall 1\n", i+1, addr)
	}
	return `global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client 1m
    timeout server 1m
    # A replica that refuses the connection: try another.
    retries 2
    option redispatch 1

frontend mcp
    bind fd@3
    http-request set-header X-Forwarded-Proto https if { ssl_fc }
    stats enable
    stats uri /haproxy-stats
    default_backend replicas

backend replicas
    balance roundrobin
` + servers.String()
}

// haproxyPath finds haproxy; without it the test skips, except in CI,
// which installs it (.ci/run) and must not pass without running this.
func haproxyPath(t *testing.T) string {
	path, err := exec.LookPath("haproxy")
	if err == nil {
		return path
	}
	if path, err = exec.LookPath("/usr/sbin/haproxy"); err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("haproxy is not installed, and CI=true: .ci/run installs Debian's haproxy for this test")
	}
	t.Skip("haproxy is not installed (Debian: apt-get install haproxy); the replicas test needs it")
	return ""
}

// replicaProc is one "mcpwire serve --listen" process.
type replicaProc struct {
	cmd    *exec.Cmd
	addr   string // host:port
	killed bool
	stderr *syncBuffer
	eof    chan struct{} // closed when its stderr ended
}

// startReplica starts "mcpwire serve --listen" with args (this test
// binary), the built-in example server as its upstream.
func startReplica(t *testing.T, args ...string) *replicaProc {
	t.Helper()
	args = append(append([]string{"serve", "--listen", "127.0.0.1:0", "--no-auth"}, args...), "--", os.Args[0], ServeName)
	cmd := exec.Command(os.Args[0], args...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replicaProc{cmd: cmd, stderr: &syncBuffer{}, eof: make(chan struct{})}
	t.Cleanup(func() {
		if r.killed {
			<-r.eof
			_ = cmd.Wait()
			return
		}
		if err := r.stop(); err != nil {
			t.Errorf("replica %s exit: %v; stderr:\n%s", r.addr, err, r.stderr)
		}
	})
	addr := make(chan string, 1)
	go func() {
		defer close(r.eof)
		lines := bufio.NewScanner(pipe)
		for lines.Scan() {
			r.stderr.Write([]byte(lines.Text() + "\n"))
			if u, ok := strings.CutPrefix(lines.Text(), "mcpwire: serving at "); ok {
				addr <- strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/mcp")
			}
		}
	}()
	select {
	case r.addr = <-addr:
		return r
	case <-r.eof:
		t.Fatalf("a replica ended without saying where it serves:\n%s", r.stderr)
		return nil
	}
}

// stop interrupts the replica and waits for it and its stderr, once.
func (r *replicaProc) stop() error {
	if r.killed {
		return nil
	}
	r.killed = true
	_ = r.cmd.Process.Signal(os.Interrupt)
	<-r.eof
	return r.cmd.Wait()
}

// startHAProxy runs haproxy in the foreground on a loopback port in front
// of the replicas and returns its base URL.
func startHAProxy(t *testing.T, replicas []*replicaProc) string {
	t.Helper()
	bin := haproxyPath(t)
	addrs := make([]string, len(replicas))
	for i, r := range replicas {
		addrs[i] = r.addr
	}
	cfg := filepath.Join(t.TempDir(), "haproxy.cfg")
	write(t, cfg, haproxyConfig(addrs))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lnFile, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	_ = ln.Close() // the file keeps the socket open for haproxy
	cmd := exec.Command(bin, "-db", "-f", cfg)
	cmd.ExtraFiles = []*os.File{lnFile}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lnFile.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("haproxy output:\n%s", out)
		}
	})
	return base
}

// servedPerReplica reads, from HAProxy's statistics, how many 2xx
// responses each replica gave.
func servedPerReplica(t *testing.T, base string) map[string]int {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(base + "/haproxy-stats;csv")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(body), "# "))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("haproxy stats: %v: %s", err, body)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	served := map[string]int{}
	for _, row := range rows[1:] {
		if len(row) > col["hrsp_2xx"] && row[col["pxname"]] == "replicas" && strings.HasPrefix(row[col["svname"]], "r") {
			served[row[col["svname"]]], _ = strconv.Atoi(row[col["hrsp_2xx"]])
		}
	}
	return served
}

func connectThrough(t *testing.T, url, version string) *mcp.Client {
	t.Helper()
	tr, err := transport.FromServer(&config.Server{Type: config.TypeHTTP, URL: url}, transport.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Connect(t.Context(), tr, &mcp.ClientOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (%s) through haproxy: %v", version, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if got := c.ProtocolVersion(); got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return c
}

// echoMany makes n echo calls, spread over the clients, parallel callers
// at a time; it returns the calls that failed. Each echo carries its own
// message, so a success is checked to be that call's answer.
func echoMany(ctx context.Context, clients []*mcp.Client, n, parallel int) []error {
	var next atomic.Int64
	var mu sync.Mutex
	var failed []error
	var wg sync.WaitGroup
	for w := range parallel {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				c := clients[(w+i)%len(clients)]
				msg := "call-" + strconv.Itoa(i)
				res, err := c.CallTool(ctx, "echo", map[string]any{"message": msg}, nil)
				if err == nil && (res.IsError || textOf(res) != msg) {
					err = fmt.Errorf("call %d answered %q (isError %v)", i, textOf(res), res.IsError)
				}
				if err != nil {
					mu.Lock()
					failed = append(failed, fmt.Errorf("echo %d (%s): %w", i, c.ProtocolVersion(), err))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return failed
}

func TestServeReplicasBehindHAProxy(t *testing.T) {
	haproxyPath(t) // skip (or, in CI, fail) before starting anything
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	keyFile := filepath.Join(t.TempDir(), "session.key")
	write(t, keyFile, hex.EncodeToString(key)+"\n")

	replicas := make([]*replicaProc, replicaCount)
	for i := range replicas {
		replicas[i] = startReplica(t, "--session-key-file", keyFile)
	}
	base := startHAProxy(t, replicas)
	url := base + "/mcp"
	// A safety net only: a call that hangs fails the test here instead of
	// at the test binary's timeout.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	session := connectThrough(t, url, "2025-11-25")
	stateless := connectThrough(t, url, mcp.ModernProtocolVersion)
	clients := []*mcp.Client{session, stateless}

	const calls = 10000
	if failed := echoMany(ctx, clients, calls, 16); len(failed) > 0 {
		t.Fatalf("%d of %d calls failed with every replica up; first: %v", len(failed), calls, failed[0])
	}
	served, total := servedPerReplica(t, base), 0
	for i := range replicaCount {
		name := "r" + strconv.Itoa(i+1)
		if served[name] == 0 {
			t.Errorf("replica %s served nothing: %v", name, served)
		}
		total += served[name]
	}
	if total < calls {
		t.Errorf("haproxy counts %d successful responses for %d calls: %v", total, calls, served)
	}

	// Kill a replica while slow calls are in flight on every replica.
	const slowCalls = 12
	var started sync.WaitGroup
	started.Add(slowCalls)
	results := make(chan error, slowCalls)
	for i := range slowCalls {
		c := clients[i%len(clients)]
		go func() {
			var once sync.Once
			res, err := c.CallTool(ctx, "slow", map[string]any{"steps": 40, "delay_ms": 50}, &mcp.CallOptions{
				OnProgress: func(context.Context, mcp.ProgressNotification) { once.Do(started.Done) },
			})
			once.Do(started.Done) // failed before its first progress
			if err == nil && res.IsError {
				err = fmt.Errorf("isError: %s", textOf(res))
			}
			results <- err
		}()
	}
	started.Wait()
	victim := replicas[1]
	victim.killed = true
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var failures []error
	for range slowCalls {
		if err := <-results; err != nil {
			failures = append(failures, err)
		}
	}
	if len(failures) == 0 || len(failures) == slowCalls {
		t.Fatalf("%d of %d slow calls failed when one of three replicas died; want some, not all: %v", len(failures), slowCalls, failures)
	}
	for _, err := range failures {
		if ctx.Err() != nil || strings.TrimSpace(err.Error()) == "" {
			t.Errorf("an in-flight call on the dead replica did not fail clearly: %v", err)
		}
		t.Logf("in flight on the dead replica: %v", err)
	}

	// Later calls go on through the others: the older-era session too.
	const after = 600
	if failed := echoMany(ctx, clients, after, 8); len(failed) > 0 {
		t.Fatalf("%d of %d calls after the replica died failed; first: %v", len(failed), after, failed[0])
	}
	if ctx.Err() != nil {
		t.Fatal("the run hit its safety net")
	}
}
