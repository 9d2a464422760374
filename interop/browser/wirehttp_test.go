package browser

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Over Streamable HTTP in the initialize era, the wire shows the requests
// that carry no message of the client's: the GET of the listener stream
// (its status and session header) and, once Reconnect ends the session,
// the DELETE.
func TestWireListenerAndDelete(t *testing.T) {
	page := inspector(t, "--protocol", "2025-11-25", bookServer(t))
	ctx := browser(t)
	get1 := `#wire tr[data-method="GET (listener stream)"]`
	run(t, ctx, "the listener stream's GET",
		chromedp.Navigate(page),
		tab("wire"),
		chromedp.Click(css(get1), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#wire-detail table.http-headers`)),
	)
	if status := get(t, ctx, "read the GET's status", chromedp.Text(css(`#wire tr.selected td.http`))); status != "200 sse" {
		t.Errorf("the GET's status shows %q, want 200 sse", status)
	}
	if hdrs := get(t, ctx, "read the GET's headers", chromedp.Text(css(`#wire-detail table.http-headers`))); !strings.Contains(hdrs, "Mcp-Session-Id") {
		t.Errorf("the GET's headers: %q", hdrs)
	}
	shot(t, ctx, "wire-listener")
	run(t, ctx, "reconnect: the session's DELETE",
		tab("servers"),
		chromedp.Click(css(`#servers button.reconnect`), chromedp.NodeVisible),
		chromedp.Poll[chromedp.Void](`document.querySelector(".reconnect-status").textContent.startsWith("reconnected")`),
		tab("wire"),
		chromedp.Click(css(`#wire tr[data-method="DELETE (session end)"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#wire-detail table.http-headers`)),
	)
	if hdrs := get(t, ctx, "read the DELETE's headers", chromedp.Text(css(`#wire-detail table.http-headers`))); !strings.Contains(hdrs, "Mcp-Session-Id") {
		t.Errorf("the DELETE's headers: %q", hdrs)
	}
	if status := get(t, ctx, "read the DELETE's status", chromedp.Text(css(`#wire tr.selected td.http`))); !strings.HasPrefix(status, "2") {
		t.Errorf("the DELETE's status shows %q", status)
	}
	if gets := get(t, ctx, "count the GETs", chromedp.Evaluate[int](`state.wire.filter((e) => e.kind === "http" && e.method === "GET (listener stream)").length`)); gets != 2 {
		t.Errorf("%d listener GETs, want 2 (one per session)", gets)
	}
	shot(t, ctx, "wire-delete")
}
