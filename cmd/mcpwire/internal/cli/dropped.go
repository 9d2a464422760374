package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// droppedEvery is the least time between two notices of dropped
// notifications: a server that floods would otherwise flood stderr too.
const droppedEvery = time.Second

// droppedNotice returns the callback that tells the user, on stderr, that
// a server's notifications came faster than they could be shown and some
// were dropped (see mcp.ClientOptions.NotificationQueue). desc names the
// server when the ctx's Origin does not. The first drops are told at once,
// later ones added up into at most one line a second.
func droppedNotice(io *IOStreams, desc string) func(context.Context, int) {
	type told struct {
		last    time.Time
		pending int
	}
	var mu sync.Mutex
	byServer := map[string]*told{}
	clock := io.clockOrSystem()
	return func(ctx context.Context, k int) {
		name := desc
		if o, ok := mcp.OriginOf(ctx); ok && o.Server != "" {
			name = o.Server
		}
		mu.Lock()
		defer mu.Unlock()
		s := byServer[name]
		if s == nil {
			s = &told{}
			byServer[name] = s
		}
		s.pending += k
		now := clock.Now()
		if !s.last.IsZero() && now.Sub(s.last) < droppedEvery {
			return
		}
		fmt.Fprintf(io.ErrOut, "mcpwire: warning: %s sent notifications faster than they could be handled; %d dropped (oldest logs, progress and updates first)\n", Sanitize(name), s.pending)
		s.last, s.pending = now, 0
	}
}
