package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
)

// noisyServer is the example server behind a shell that first writes its
// process id to stderr, so that each start shows in the stderr tail.
func noisyServer() []string {
	return []string{"sh", "-c", `echo "started $$" >&2; exec "$0" __serve-mcptest`, mcpwireBin}
}

// The Servers tab shows a stdio child's stderr tail, and Reconnect ends
// the connection and makes a new one: a new child (a second "started"
// line with another process id) and a second handshake on the wire, for
// an ad-hoc server (the one client replaced) and a configured one
// (through the manager).
func TestServersReconnect(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	cmd := noisyServer()
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"demo": map[string]any{"command": cmd[0], "args": cmd[1:]}}})
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, server string
		args         []string
	}{
		{"ad-hoc", "sh", append([]string{"--"}, cmd...)},
		{"configured", "demo", []string{"--config", cfg}},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := inspector(t, c.args...)
			ctx := browser(t)
			card := `#servers .server[data-server="` + c.server + `"]`
			started := regexp.MustCompile(`started (\d+)`)
			run(t, ctx, "the stderr tail shows",
				chromedp.Navigate(page),
				chromedp.WaitVisible(css(card+` .badge.state-connected`)),
				chromedp.Poll[chromedp.Void](`(document.querySelector('`+card+` pre.stderr') || {}).textContent?.includes("started")`),
			)
			run(t, ctx, "reconnect",
				chromedp.Click(css(card+` button.reconnect`)),
				chromedp.Poll[chromedp.Void](`document.querySelector('`+card+` .reconnect-status').textContent.startsWith("reconnected")`),
				chromedp.WaitVisible(css(card+` .badge.state-connected`)),
				chromedp.Poll[chromedp.Void](`(document.querySelector('`+card+` pre.stderr').textContent.match(/started/g) || []).length >= 2`),
			)
			tail := get(t, ctx, "read the stderr tail", chromedp.Text(css(card+` pre.stderr`)))
			pids := started.FindAllStringSubmatch(tail, -1)
			if len(pids) != 2 || pids[0][1] == pids[1][1] {
				t.Errorf("stderr tail after a reconnect: %q, want two starts of different processes", tail)
			}
			inits := get(t, ctx, "count the handshakes", chromedp.Evaluate[int](`state.wire.filter((e) => e.direction === "send" && (e.method === "initialize" || e.method === "server/discover") && e.kind === "request").length`))
			if inits != 2 {
				t.Errorf("%d handshakes (initialize or server/discover) on the wire, want 2 (the first connection and the reconnect)", inits)
			}
			shot(t, ctx, "servers-reconnect-"+c.name)
			run(t, ctx, "the new connection works",
				tab("tools"),
				chromedp.Click(css(`li[data-tool="add"]`), chromedp.NodeVisible),
				chromedp.Click(css(`#call`), chromedp.NodeVisible),
				chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
			)
		})
	}
}
