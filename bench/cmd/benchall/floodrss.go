package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/bench/canned"
	"github.com/mcpwire/mcpwire/bench/clients"
)

// flood-rss: a server that floods log notifications at full speed for a
// while against a slow handler, with calls made all along; the client's
// peak RSS, in a child process of its own so that one client's queue
// never bills another. The default run is short; -flood-duration 10m is
// the soak of issue #32 (under 100 MiB plus the largest message).

// floodDuration is how long each child floods (-flood-duration).
var floodDuration = 10 * time.Second

// floodRSSCap stops a child whose RSS passes it (-flood-rss-cap, MiB), so
// that a client that queues without bound cannot take the machine down;
// its figure is then "over the cap".
var floodRSSCap = 2048

const (
	floodRSSBatch = 10000   // notifications per notify call
	floodRSSSize  = 1 << 10 // bytes of text in each
)

var (
	mAnswered = Metric{Key: "answered", Head: "calls answered", Format: "%.0f"}
	mFailedC  = Metric{Key: "failed", Head: "calls failed", Lower: true, Format: "%.0f"}
	mSent     = Metric{Key: "sent", Head: "notifications sent", Format: "%.0f"}
)

// floodRSS is the child's measurement: notify calls in a row (each
// answered after its batch), echo calls on another goroutine meanwhile,
// and a handler that takes 1 ms per log message, until the duration
// passes or RSS passes the cap.
func floodRSS(c *clients.Client, target clients.Target) childResult {
	var res childResult
	if c.ConnectNoted == nil {
		res.Failure = "no notification handler"
		return res
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := c.ConnectNoted(ctx, target, func(method string) {
		if method == canned.LogMethod {
			time.Sleep(handlerDelay)
		}
	})
	cancel()
	if err != nil {
		res.Failure = "connect: " + clipErr(err)
		return res
	}
	// No Close: a client that queued without bound may take long to
	// drain; the child's exit ends the server (its stdin closes).
	end := time.Now().Add(floodDuration)
	over := make(chan int64, 1)
	stop := make(chan struct{})
	defer close(stop)
	go watchRSS(stop, over)
	var answered, failed atomic.Int64
	echoDone := make(chan struct{})
	go func() {
		defer close(echoDone)
		for time.Now().Before(end) {
			select {
			case <-stop:
				return
			default:
			}
			ctx, cancel := context.WithTimeout(context.Background(), floodDuration+time.Minute)
			_, err := s.CallText(ctx, canned.EchoTool, clients.EchoArgs)
			cancel()
			if err != nil {
				failed.Add(1)
			} else {
				answered.Add(1)
			}
		}
	}()
	sent := 0
	for time.Now().Before(end) {
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), floodDuration+time.Minute)
			defer cancel()
			_, err := s.CallText(ctx, canned.NotifyTool, map[string]any{"count": floodRSSBatch, "size": floodRSSSize, "method": canned.LogMethod})
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case rss := <-over:
			res.Failure = fmt.Sprintf("RSS passed the cap of %d MiB (%d MiB) after %s", floodRSSCap, rss>>10, time.Until(end).Round(time.Second))
			res.PeakRSSMi = float64(procStatus("VmHWM")) / 1024
			return res
		}
		sent += floodRSSBatch
		if err != nil {
			failed.Add(1)
		} else {
			answered.Add(1)
		}
	}
	select {
	case <-echoDone:
	case rss := <-over:
		res.Failure = fmt.Sprintf("RSS passed the cap of %d MiB (%d MiB)", floodRSSCap, rss>>10)
	}
	res.PeakRSSMi = float64(procStatus("VmHWM")) / 1024
	res.Calls, res.CallsFailed, res.Sent = int(answered.Load()), int(failed.Load()), sent
	return res
}

// watchRSS reports on over (once) when RSS passes floodRSSCap.
func watchRSS(stop <-chan struct{}, over chan<- int64) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if rss := procStatus("VmRSS"); rss > int64(floodRSSCap)<<10 {
				over <- rss
				return
			}
		}
	}
}

// floodRSSTable runs one child per client and repetition.
func (e *env) floodRSSTable(tr string) *Table {
	cs := notedClients(e.clientsFor(tr, false))
	d := floodDuration
	t := newTable("flood-rss/"+tr, fmt.Sprintf("Peak RSS under a flood of log notifications of 1 KiB at full speed for %s against a handler that takes 1 ms, calls made all along, %s; in a child process", d, transportNames[tr]),
		names(cs), mPeak, mAnswered, mFailedC, mSent)
	t.Note = fmt.Sprintf("The server sends batches of %d notifications as fast as its pipe takes them (each notify call answers after its batch) while another goroutine calls echo in a loop. "+
		"mcpwire: `manager.Subscribe` behind the connection's bounded queue (1,024 notifications, 8 MiB) and the subscriber's (1,024 events, 8 MiB). "+
		"go-sdk: `ClientOptions.LoggingMessageHandler`. mcp-go: `Client.OnNotification`, on the reading goroutine, so the server is held to the handler's pace. "+
		"A child whose RSS passes %d MiB is stopped and shows its RSS then. `-flood-duration 10m` is the soak.", floodRSSBatch, floodRSSCap)
	e.interleave(cs, func(rep int, c *clients.Client) {
		if _, failed := t.Failures[c.Name]; failed {
			return
		}
		res, err := e.spawnChild("flood-rss", c, e.targets[tr], 0, floodDuration+3*time.Minute)
		if err != nil {
			t.fail(c.Name, err)
			return
		}
		if res.PeakRSSMi > 0 {
			t.add(c.Name, mPeak.Key, res.PeakRSSMi)
		}
		if res.Failure != "" {
			t.text(c.Name, "failure", res.Failure)
			e.logf("  flood-rss %s %s: %s", tr, c.Name, res.Failure)
			return
		}
		t.add(c.Name, mAnswered.Key, float64(res.Calls))
		t.add(c.Name, mFailedC.Key, float64(res.CallsFailed))
		t.add(c.Name, mSent.Key, float64(res.Sent))
	})
	return t
}
