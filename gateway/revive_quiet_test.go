package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/manager"
)

// A server that keeps failing at the longest wait is said to be stopped
// once for each reason, and again only after quietRepeat: before, a server
// that could never start put a line on stderr every Max, forever.
func TestStoppedServerIsNotToldEveryMax(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var told []string
		// Waits far beyond the test's own clock moves, so that no
		// scheduled try (which needs a manager) fires.
		r := &reviver{
			ctx:     context.Background(),
			opts:    ReviveOptions{First: 3 * time.Hour, Max: 3 * time.Hour, CallGap: time.Second},
			notice:  func(s string) { told = append(told, s) },
			servers: map[string]*revival{},
		}
		open := func(reason string) {
			r.onEvent(manager.Event{Kind: manager.BreakerOpen, Server: "a",
				Err: &manager.BreakerError{Failures: 5, Last: errors.New(reason)}})
		}
		open("exit status 1")
		open("exit status 1")
		open("exit status 1")
		if len(told) != 1 || !strings.Contains(told[0], "tries it again every 3h0m0s") || !strings.Contains(told[0], "said again when the reason changes") {
			t.Fatalf("three openings for one reason told %d times: %q", len(told), told)
		}
		open("exit status 2")
		if len(told) != 2 || !strings.Contains(told[1], "exit status 2") {
			t.Fatalf("a new reason was not told: %q", told)
		}
		time.Sleep(quietRepeat + time.Minute) // the bubble's clock: no real wait
		open("exit status 2")
		if len(told) != 3 {
			t.Fatalf("the same reason after %s was not told again: %q", quietRepeat, told)
		}
		r.mu.Lock()
		for _, rv := range r.servers {
			rv.stopLocked()
		}
		r.mu.Unlock()
	})
}
