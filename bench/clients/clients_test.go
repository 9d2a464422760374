package clients

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/bench/canned"
	"github.com/mcpwire/mcpwire/bench/serverproc"
)

var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bench-clients-")
	if err != nil {
		panic(err)
	}
	bin, err := serverproc.Build(context.Background(), dir)
	if err != nil {
		os.RemoveAll(dir)
		panic(err)
	}
	serverBin = bin
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestEachClientOnce proves the harness: every client and floor connects
// to the canned server over every transport it has, in each era it
// speaks, calls each tool once and lists the tools. The canned server of
// the 2026-07-28 era refuses anything else, so passing there proves the
// client spoke that era.
func TestEachClientOnce(t *testing.T) {
	targets := map[string]func(t *testing.T) Target{
		"stdio": func(t *testing.T) Target { return Target{Command: serverBin} },
		"http":  func(t *testing.T) Target { return httpTarget(t, false, false) },
		"sse":   func(t *testing.T) Target { return httpTarget(t, true, false) },
		"stdio-modern": func(t *testing.T) Target {
			return Target{Command: serverBin, Args: serverproc.ModernArgs, Modern: true}
		},
		"http-modern": func(t *testing.T) Target { return httpTarget(t, false, true) },
		"sse-modern":  func(t *testing.T) Target { return httpTarget(t, true, true) },
	}
	for _, c := range All() {
		for _, tname := range []string{"stdio", "http", "sse", "stdio-modern", "http-modern", "sse-modern"} {
			t.Run(c.Name+"/"+tname, func(t *testing.T) {
				if !strings.HasPrefix(tname, "stdio") && !c.HTTP {
					t.Skip("no HTTP form")
				}
				if strings.HasSuffix(tname, "-modern") && !c.Modern {
					t.Skip("no form for the 2026-07-28 era")
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				s, err := c.Connect(ctx, targets[tname](t))
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer func() {
					if err := s.Close(); err != nil {
						t.Logf("close: %v", err)
					}
				}()
				if err := s.Echo(ctx); err != nil {
					t.Fatalf("echo: %v", err)
				}
				const size = 1 << 20
				n, err := s.Big(ctx, size)
				if err != nil {
					t.Fatalf("big: %v", err)
				}
				// Decoded text is shorter than its JSON form by one byte
				// per \n escape (one per 88 bytes).
				if n > size || n < size-size/80 {
					t.Errorf("big: got %d bytes of text for a %d-byte result", n, size)
				}
				if n, err := s.List(ctx); err != nil || n != canned.ToolCount {
					t.Fatalf("list: %d tools, %v; want %d", n, err, canned.ToolCount)
				}
				if p, ok := s.(Pipeliner); ok {
					if err := p.Pipeline(ctx, 200, 64); err != nil {
						t.Fatalf("pipeline: %v", err)
					}
				}
			})
		}
	}
}

func httpTarget(t *testing.T, sse, modern bool) Target {
	srv, err := serverproc.StartHTTP(serverBin, sse, modern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return Target{URL: srv.URL, Modern: modern}
}

// TestConnectMany proves the managed connect: several servers at once,
// every one connected and listed.
func TestConnectMany(t *testing.T) {
	for _, c := range All() {
		if c.ConnectMany == nil {
			continue
		}
		for _, tname := range []string{"stdio", "http"} {
			t.Run(c.Name+"/"+tname, func(t *testing.T) {
				target := Target{Command: serverBin}
				if tname == "http" {
					target = httpTarget(t, false, false)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				closer, err := c.ConnectMany(ctx, target, 3)
				if err != nil {
					t.Fatal(err)
				}
				if err := closer.Close(); err != nil {
					t.Logf("close: %v", err)
				}
			})
		}
	}
}

// TestNotified proves the flood and storm harness: every client with a
// notification handler sees each notification the notify tool sends, and
// the canned server counts the manager's tools/list after a storm.
func TestNotified(t *testing.T) {
	for _, c := range All() {
		if c.ConnectNoted == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var mu sync.Mutex
			seen := map[string]int{}
			all := make(chan struct{})
			// mcpwire folds a list_changed into an equal one still queued
			// for the handler (docs/security.md, flooding servers), so how
			// many of the five reach it depends on the handler's pace: at
			// least one must. Every log message must.
			wantChanged := 5
			if c.Name == "mcpwire" {
				wantChanged = 1
			}
			closed := false
			s, err := c.ConnectNoted(ctx, Target{Command: serverBin}, func(method string) {
				mu.Lock()
				defer mu.Unlock()
				seen[method]++
				if !closed && seen[canned.LogMethod] == 20 && seen[canned.ToolsChangedMethod] >= wantChanged {
					closed = true
					close(all)
				}
			})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer s.Close()
			for _, order := range []map[string]any{
				{"count": 20, "size": 100, "method": canned.LogMethod},
				{"count": 5, "method": canned.ToolsChangedMethod, "gap_us": 1000},
			} {
				if text, err := s.CallText(ctx, canned.NotifyTool, order); err != nil || text != "sent" {
					t.Fatalf("notify %v: %q, %v", order, text, err)
				}
			}
			select {
			case <-all:
			case <-ctx.Done():
				mu.Lock()
				t.Fatalf("the handler saw %v", seen)
			}
			if c.Name != "mcpwire" {
				return
			}
			// The manager refreshes once the announcements pause.
			for ctx.Err() == nil {
				text, err := s.CallText(ctx, canned.StatsTool, nil)
				if err != nil {
					t.Fatal(err)
				}
				var lists int
				var after float64
				if _, err := fmt.Sscan(text, &lists, &after); err != nil {
					t.Fatalf("stats %q: %v", text, err)
				}
				if lists > 0 && after > 0 {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Fatal("no tools/list after the storm")
		})
	}
}
