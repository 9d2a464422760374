package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// watch on a URL shows a tool list change made by another client in both
// eras. A 2026-07-28 server sends list_changed only to a client that opted
// in to the list in its subscriptions/listen, so watch must opt in to
// every list; before that fix the modern era printed nothing.
func TestWatchURLShowsToolListChanges(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"auto", "2025-11-25", mcp.ModernProtocolVersion} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			hs := httpServer(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			out, errOut := newNotifyingBuffer(), newNotifyingBuffer()
			done := make(chan result, 1)
			go func() {
				done <- runIO(t, ctx, &IOStreams{Out: out, ErrOut: errOut}, "watch", "--protocol", protocol, hs.URL)
			}()
			errOut.waitFor(t, "Ctrl-C to stop", done)
			run(t, "call", "add-tool", "--arg", "name=shout", hs.URL).wantCode(t, 0)
			out.waitFor(t, mcp.NotificationToolsListChanged, done)
			cancel() // Ctrl-C
			if r := <-done; r.code != ExitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
				t.Errorf("exit %d, stderr %q; want %d", r.code, errOut.String(), ExitInterrupted)
			}
		})
	}
}
