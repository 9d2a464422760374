package cli

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Progress shows a call's progress notifications on io.ErrOut: as one live
// line redrawn with "\r" when ErrOut is a terminal, else as one plain line
// per update. Update may be called from the engine's goroutine while the
// caller is about to call Done; both are safe for concurrent use, and
// updates arriving after Done are dropped.
type Progress struct {
	mu    sync.Mutex
	io    *IOStreams
	label string
	live  bool // a live line is on screen and must be cleared
	done  bool
}

// NewProgress returns a progress display for the named operation.
func NewProgress(io *IOStreams, label string) *Progress {
	return &Progress{io: io, label: label}
}

// barWidth is the number of cells of the live bar.
const barWidth = 24

// Update shows one notification. It has the signature of
// mcp.CallOptions.OnProgress.
func (p *Progress) Update(n jsonrpc.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	if !p.io.IsTerminal {
		fmt.Fprintf(p.io.ErrOut, "progress %s: %s\n", p.label, progressText(n))
		return
	}
	line := p.label + " " + bar(n) + " " + progressText(n)
	w := p.io.TableWidth()
	if w == 0 {
		w = DefaultWidth // a live line must not wrap
	}
	line = Truncate(line, w-1)
	// \r back to column 0, ESC[K clears what a longer line left behind.
	fmt.Fprintf(p.io.ErrOut, "\r\x1b[K%s", line)
	p.live = true
}

// Done removes the live line, so that what follows starts on a clean line,
// and drops later updates.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		fmt.Fprint(p.io.ErrOut, "\r\x1b[K")
		p.live = false
	}
	p.done = true
}

// progressText is "3/5 (60%) message", "3 message" without a total.
func progressText(n jsonrpc.Progress) string {
	s := formatNumber(n.Progress)
	if n.Total != nil && *n.Total > 0 {
		s += "/" + formatNumber(*n.Total)
		s += fmt.Sprintf(" (%d%%)", percent(n))
	}
	if n.Message != "" {
		s += " " + strings.Join(strings.Fields(n.Message), " ")
	}
	return s
}

func percent(n jsonrpc.Progress) int {
	if n.Total == nil || *n.Total <= 0 {
		return 0
	}
	p := int(n.Progress / *n.Total * 100)
	return min(max(p, 0), 100)
}

func bar(n jsonrpc.Progress) string {
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
