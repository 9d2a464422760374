package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

// The survival probe and the idle-memory measurement run in a child
// process of their own (this binary re-executed), so that a client's huge
// or long-lived allocations never bill the others, and a client that
// crashes or runs out of memory only ends its child.

// childResult is what a child prints as its last line.
type childResult struct {
	Largest   int     `json:"largest"` // bytes
	Failure   string  `json:"failure,omitempty"`
	PeakRSSMi float64 `json:"peakRSSMiB,omitempty"`
	RSSKiB    float64 `json:"rssKiB,omitempty"`
	HeapKiB   float64 `json:"heapKiB,omitempty"`
	Goroutine float64 `json:"goroutines,omitempty"`
	// flood-rss: calls answered and failed, notifications sent.
	Calls       int `json:"calls,omitempty"`
	CallsFailed int `json:"callsFailed,omitempty"`
	Sent        int `json:"sent,omitempty"`
	// soak: the samples and the calls per second.
	Soak []soakSample `json:"soak,omitempty"`
	Rate float64      `json:"rate,omitempty"`
}

func findClient(name string) (*clients.Client, error) {
	for _, c := range clients.All() {
		if c.Name == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no client named %q", name)
}

// runChild is the child's main.
func runChild(mode, client string, target clients.Target, maxSize int) error {
	c, err := findClient(client)
	if err != nil {
		return err
	}
	var res childResult
	switch mode {
	case "survive":
		res = survive(c, target, maxSize)
	case "idle":
		if res, err = idle(c, target); err != nil {
			return err
		}
	case "flood-rss":
		res = floodRSS(c, target)
	case "soak":
		res = soak(c, target)
	default:
		return fmt.Errorf("unknown child mode %q", mode)
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// survive doubles the result size from 16 MiB up to maxSize until the
// client fails.
func survive(c *clients.Client, target clients.Target, maxSize int) childResult {
	var res childResult
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	connect := c.Connect
	if c.ConnectLarge != nil {
		connect = c.ConnectLarge
	}
	s, err := connect(ctx, target)
	cancel()
	if err != nil {
		res.Failure = "connect: " + err.Error()
		return res
	}
	defer s.Close()
	for size := 16 << 20; size <= maxSize; size *= 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		n, err := s.Big(ctx, size)
		cancel()
		if err == nil && n < size*9/10 {
			err = fmt.Errorf("received %d bytes of text", n)
		}
		if err != nil {
			res.Failure = fmt.Sprintf("%d MiB: %s", size>>20, clipErr(err))
			break
		}
		res.Largest = size
		runtime.GC()
	}
	res.PeakRSSMi = float64(procStatus("VmHWM")) / 1024
	return res
}

func clipErr(err error) string {
	s := strings.ReplaceAll(err.Error(), "\n", " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// footprint settles the heap and returns RSS (KiB), Go heap in use plus
// goroutine stacks (bytes), and the goroutine count.
func footprint() (rssKiB int64, heap uint64, goroutines int) {
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return procStatus("VmRSS"), m.HeapInuse + m.StackInuse, runtime.NumGoroutine()
}

// procStatus reads a kB field of /proc/self/status.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// spawnChild runs this binary in child mode and decodes its answer.
func (e *env) spawnChild(mode string, c *clients.Client, tg clients.Target, maxSize int, timeout time.Duration) (childResult, error) {
	self, err := os.Executable()
	if err != nil {
		return childResult{}, err
	}
	args := []string{"-child", mode, "-client", c.Name, "-max", strconv.Itoa(maxSize), "-idle-conns", strconv.Itoa(idleConns), "-idle-base", strconv.Itoa(idleBase),
		"-flood-duration", floodDuration.String(), "-flood-rss-cap", strconv.Itoa(floodRSSCap), "-soak-calls", strconv.Itoa(soakCalls),
		"-modern=" + strconv.FormatBool(tg.Modern)}
	if tg.IsHTTP() {
		args = append(args, "-url", tg.URL)
	} else {
		args = append(args, "-server", tg.Command)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var res childResult
	if jerr := json.Unmarshal([]byte(lines[len(lines)-1]), &res); jerr != nil {
		why := runErr
		if why == nil {
			why = jerr
		}
		if ctx.Err() != nil {
			why = fmt.Errorf("gave up after %s", timeout)
		}
		tail := errb.String()
		if len(tail) > 300 {
			tail = "…" + tail[len(tail)-300:]
		}
		return res, fmt.Errorf("child %s %s: %v %s", mode, c.Name, why, strings.TrimSpace(tail))
	}
	return res, nil
}

// surviveTable probes each client's largest result.
func (e *env) surviveTable(tr string) *Table {
	cs := e.clientsFor(tr, false)
	cs = append(cs, clientsNamed(e.clientsFor(tr, true), "raw")...)
	maxSize := 256 << 20
	if e.quick {
		maxSize = 16 << 20
	}
	t := newTable("survive/"+tr, fmt.Sprintf("Largest tool result survived (16 MiB doubling up to %d MiB), %s; one probe per client, in a child process", maxSize>>20, transportNames[tr]),
		names(cs), mLargest, mPeak)
	for _, c := range cs {
		res, err := e.spawnChild("survive", c, e.targets[tr], maxSize, 10*time.Minute)
		if err != nil {
			// A crash (out of memory, say) is a failure at the next size.
			res.Failure = clipErr(err)
		}
		t.add(c.Name, mLargest.Key, float64(res.Largest>>20))
		if res.PeakRSSMi > 0 {
			t.add(c.Name, mPeak.Key, res.PeakRSSMi)
		}
		if res.Failure != "" {
			t.text(c.Name, "failure", res.Failure)
		}
		e.logf("  survive %s %s: largest %d MiB %s", tr, c.Name, res.Largest>>20, res.Failure)
	}
	return t
}

var (
	mLargest = Metric{Key: "largest-MiB", Head: "largest MiB", Bar: 1, Format: "%.0f"}
	mPeak    = Metric{Key: "peak-RSS-MiB", Head: "peak RSS MiB", Lower: true, Format: "%.0f"}
)

func clientsNamed(cs []*clients.Client, name string) []*clients.Client {
	for _, c := range cs {
		if c.Name == name {
			return []*clients.Client{c}
		}
	}
	return nil
}
