package main

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
	"github.com/mcpwire/mcpwire/bench/serverproc"
)

// gwBuilds are the canned server, the mcpwire command and the line
// relay, built once for the package's tests.
var gwBuilds = sync.OnceValues(func() ([3]string, error) {
	dir, err := os.MkdirTemp("", "benchall-test-")
	if err != nil {
		return [3]string{}, err
	}
	ctx := context.Background()
	bin, err := serverproc.Build(ctx, dir)
	if err != nil {
		return [3]string{}, err
	}
	mw, err := serverproc.BuildMCPWire(ctx, dir)
	if err != nil {
		return [3]string{}, err
	}
	relay, err := serverproc.BuildRelay(ctx, dir)
	return [3]string{bin, mw, relay}, err
})

// gwEnv serves the canned server over HTTP beside the builds, as a run
// with -only gw does.
func gwEnv(t *testing.T) *env {
	t.Helper()
	bins, err := gwBuilds()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serverproc.StartHTTP(bins[0], false, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return &env{reps: 1, quick: true, log: io.Discard, dir: t.TempDir(), bin: bins[0], mcpwireBin: bins[1], relayBin: bins[2],
		targets: map[string]clients.Target{"stdio": {Command: bins[0]}, "http": {URL: srv.URL}}}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bins, err := gwBuilds(); err == nil {
		os.RemoveAll(filepath.Dir(bins[0]))
	}
	os.Exit(code)
}

// TestRoutesReachTheServer proves the gateway workload's routes: each one
// reaches the canned server (echo and a 1 MiB result) through its
// gateway, an npm gateway that is not installed says how to install it,
// and stopping a gateway ends its whole process group.
func TestRoutesReachTheServer(t *testing.T) {
	e := gwEnv(t)
	for _, tr := range []string{"stdio", "http"} {
		cs, procs := e.routeClients(tr)
		if len(cs) < 4 {
			t.Errorf("%s: %d routes, want direct, two of mcpwire serve and the other gateways", tr, len(cs))
		}
		for _, c := range cs {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			s, err := c.Connect(ctx, clients.Target{})
			if err != nil {
				if strings.Contains(c.Name, "(npm)") && strings.Contains(err.Error(), "not installed") {
					if !strings.Contains(err.Error(), npmInstall) {
						t.Errorf("%s/%s: %v does not say how to install it", tr, c.Name, err)
					}
					cancel()
					continue
				}
				t.Errorf("%s/%s: connect: %v", tr, c.Name, err)
				cancel()
				continue
			}
			if err := s.Echo(ctx); err != nil {
				t.Errorf("%s/%s: echo: %v", tr, c.Name, err)
			}
			if n, err := s.Big(ctx, 1<<20); err != nil || n < 9<<20/10 {
				t.Errorf("%s/%s: big: %d bytes, %v", tr, c.Name, n, err)
			}
			s.Close()
			cancel()
		}
		for _, p := range procs {
			pgid := p.cmd.Process.Pid
			p.stop()
			select {
			case <-p.exited:
			default:
				t.Errorf("%s: gateway %d still running after stop", tr, pgid)
			}
			if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("%s: process group %d outlived its gateway: %v", tr, pgid, err)
			}
		}
	}
}

func TestGatewaySessions(t *testing.T) {
	e := gwEnv(t)
	defer func(b, n int) { idleBase, idleConns = b, n }(idleBase, idleConns)
	idleBase, idleConns = 2, 6
	held, perK, err := e.sessionsOnce(clients.MCPWire(), e.targets["stdio"])
	if err != nil {
		t.Fatal(err)
	}
	if held != 6 || math.IsNaN(perK) || math.IsInf(perK, 0) {
		t.Errorf("sessionsOnce = %d sessions, %v MiB per 1,000; want 6 and a number", held, perK)
	}
}

func TestStartGwProcSaysWhyItFailed(t *testing.T) {
	_, _, err := startGwProc([]string{"/bin/sh", "-c", "echo no such config >&2; exit 3"}, "", serveURL)
	if err == nil || !strings.Contains(err.Error(), "exited") || !strings.Contains(err.Error(), "no such config") {
		t.Errorf("a gateway that exits at once: %v, want its exit and its stderr", err)
	}
}
