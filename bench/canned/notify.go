package canned

import (
	"bufio"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The flood and storm workloads' tools and notifications (stdio only).
const (
	// NotifyTool sends arguments.count notifications of arguments.method
	// (LogMethod with a text of arguments.size bytes, or
	// ToolsChangedMethod), arguments.gap_us microseconds apart, and
	// answers once the last one is written. Requests keep being answered
	// meanwhile.
	NotifyTool = "notify"
	// StatsTool answers "LISTS AFTER_MS": the tools/list requests since
	// the last notify began, and how long after the last notification the
	// last of them came (negative: before it).
	StatsTool          = "stats"
	LogMethod          = "notifications/message"
	ToolsChangedMethod = "notifications/tools/list_changed"
)

// notifyOrder is a notify call's arguments.
type notifyOrder struct {
	count int
	frame []byte // one notification, newline included
	gap   time.Duration
}

// notifyStats tracks tools/list requests against the last notification.
type notifyStats struct {
	lists              atomic.Int64
	lastList, lastNote atomic.Int64 // UnixNano
}

func (r *Responder) countList() {
	r.stats.lists.Add(1)
	r.stats.lastList.Store(time.Now().UnixNano())
}

func (r *Responder) statsResult() []byte {
	after := float64(r.stats.lastList.Load()-r.stats.lastNote.Load()) / 1e6
	text := fmt.Sprintf("%d %.3f", r.stats.lists.Load(), after)
	return r.result(`{"content":[{"type":"text","text":"` + text + `"}]}`)
}

// notifyOrderFor checks a notify call's arguments.
func notifyOrderFor(count, size, gapUS int, method string) (*notifyOrder, error) {
	if count <= 0 || count > 1_000_000 || size < 0 || size > 1<<20 || gapUS < 0 || gapUS > 1_000_000 {
		return nil, fmt.Errorf("notify: want count 1..1000000, size 0..1 MiB, gap_us 0..1000000")
	}
	var frame string
	switch method {
	case LogMethod:
		frame = `{"jsonrpc":"2.0","method":"` + LogMethod + `","params":{"level":"info","logger":"canned","data":"` + strings.Repeat("x", size) + `"}}`
	case ToolsChangedMethod:
		frame = `{"jsonrpc":"2.0","method":"` + ToolsChangedMethod + `"}`
	default:
		return nil, fmt.Errorf("notify: method must be %s or %s", LogMethod, ToolsChangedMethod)
	}
	return &notifyOrder{count: count, frame: []byte(frame + "\n"), gap: time.Duration(gapUS) * time.Microsecond}, nil
}

// lockedWriter is the stdio output shared by the reply loop and notify.
type lockedWriter struct {
	mu sync.Mutex
	bw *bufio.Writer
}

// notify writes the order's notifications, then the reply, flushing
// each notification when they are spaced and every 64 otherwise.
func (r *Responder) notify(w *lockedWriter, o *notifyOrder, rep Reply) error {
	r.stats.lists.Store(0)
	for i := range o.count {
		w.mu.Lock()
		_, err := w.bw.Write(o.frame)
		if err == nil && (o.gap > 0 || i%64 == 63 || i == o.count-1) {
			err = w.bw.Flush()
		}
		w.mu.Unlock()
		if err != nil {
			return err
		}
		r.stats.lastNote.Store(time.Now().UnixNano())
		if o.gap > 0 {
			time.Sleep(o.gap)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := rep.writeParts(w.bw); err != nil {
		return err
	}
	if err := w.bw.WriteByte('\n'); err != nil {
		return err
	}
	return w.bw.Flush()
}
