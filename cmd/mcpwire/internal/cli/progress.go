package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// Progress shows a call's progress notifications on io.ErrOut: as one live
// line redrawn with "\r" when ErrOut is a terminal, else as one plain line
// per update. On a terminal, until the first notification, the live line
// shows how long the call has run ("add: still running, 45s"), so that a
// server that never answers does not look like a frozen command; a pipe
// gets no such line, since a log wants no clock.
//
// Update may be called from the engine's goroutine while the caller is
// about to call Done; both are safe for concurrent use, and updates
// arriving after Done are dropped. The caller must call Done: on a
// terminal it stops the goroutine that keeps the elapsed time.
type Progress struct {
	mu       sync.Mutex
	io       *IOStreams
	label    string
	live     bool // a live line is on screen and must be cleared
	done     bool
	notified bool // a notification came: the bar replaces the elapsed time

	stopTicks chan struct{} // closed by Done; nil off a terminal
	ticksDone chan struct{} // closed when the elapsed goroutine returns
	stopOnce  sync.Once
}

// elapsedAfter is how long a call runs before its elapsed time shows: a
// call that answers sooner gets no line at all. elapsedEvery is how often
// the line is redrawn.
const (
	elapsedAfter = 2 * time.Second
	elapsedEvery = time.Second
)

// NewProgress returns a progress display for the named operation, and on
// a terminal starts counting its elapsed time.
func NewProgress(io *IOStreams, label string) *Progress {
	p := &Progress{io: io, label: label}
	if io.IsTerminal {
		p.startElapsed(io.clockOrSystem())
	}
	return p
}

// startElapsed redraws the elapsed time at each tick of clk until Done.
func (p *Progress) startElapsed(clk clock) {
	start := clk.Now()
	ticks, stop := clk.Ticker(elapsedEvery)
	p.stopTicks, p.ticksDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.ticksDone)
		defer stop()
		for {
			select {
			case <-p.stopTicks:
				return
			case now := <-ticks:
				p.showElapsed(now.Sub(start))
			}
		}
	}()
}

// showElapsed draws "LABEL: still running, 45s" as the live line, unless
// the call is over, a notification's bar has the line, or the call is
// still too young to mention.
func (p *Progress) showElapsed(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || p.notified || d < elapsedAfter {
		return
	}
	p.drawLive(p.label + ": still running, " + d.Truncate(time.Second).String())
}

// barWidth is the number of cells of the live bar.
const barWidth = 24

// Update shows one notification. It has the shape of every progress
// callback (mcp.CallOptions.OnProgress, mcp.ClientOptions.OnProgress).
func (p *Progress) Update(_ context.Context, n mcp.ProgressNotification) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	if !p.io.IsTerminal {
		fmt.Fprintf(p.io.ErrOut, "progress %s: %s\n", p.label, progressText(n))
		return
	}
	p.notified = true
	p.drawLive(p.label + " " + bar(n) + " " + progressText(n))
}

// drawLive replaces the live line with line, cut to fit. p.mu is held.
func (p *Progress) drawLive(line string) {
	if p.io.asking() {
		return // a prompt has the terminal
	}
	w := p.io.TableWidth()
	if w == 0 {
		w = DefaultWidth // a live line must not wrap
	}
	line = Truncate(line, w-1)
	// \r back to column 0, ESC[K clears what a longer line left behind.
	fmt.Fprintf(p.io.ErrOut, "\r\x1b[K%s", line)
	p.live = true
}

// Done stops the elapsed time, removes the live line, so that what follows
// starts on a clean line, and drops later updates. It returns once the
// elapsed goroutine has; calling it again does nothing more.
func (p *Progress) Done() {
	if p.stopTicks != nil {
		p.stopOnce.Do(func() { close(p.stopTicks) })
		<-p.ticksDone
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		fmt.Fprint(p.io.ErrOut, "\r\x1b[K")
		p.live = false
	}
	p.done = true
}

// progressText is "3/5 (60%) message", "3 message" without a total.
func progressText(n mcp.ProgressNotification) string {
	s := formatNumber(n.Progress)
	if n.Total != nil && *n.Total > 0 {
		s += "/" + formatNumber(*n.Total)
		s += fmt.Sprintf(" (%d%%)", percent(n))
	}
	if n.Message != "" {
		s += " " + Sanitize(strings.Join(strings.Fields(n.Message), " "))
	}
	return s
}

func percent(n mcp.ProgressNotification) int {
	if n.Total == nil || *n.Total <= 0 {
		return 0
	}
	p := int(n.Progress / *n.Total * 100)
	return min(max(p, 0), 100)
}

func bar(n mcp.ProgressNotification) string {
	if n.Total == nil || *n.Total <= 0 {
		return "[" + strings.Repeat("?", barWidth) + "]"
	}
	full := percent(n) * barWidth / 100
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", barWidth-full) + "]"
}

// formatNumber prints 3 as "3" and 2.5 as "2.5".
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
