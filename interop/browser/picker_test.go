package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// pick chooses a server in the header's picker, as a person does.
func pick(server string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.SetValue(css(`#server`), server, chromedp.NodeVisible),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#server").dispatchEvent(new Event("change"))`),
	)
}

// A tool's form belongs to the server it was opened on: once another
// server is picked, the form goes (its Call would have run the tool on
// the server now picked), and the other server's tools are listed.
func TestPickerClosesAnotherServersTool(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	ev := everything(t)[1:] // without the "--"
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ev":   map[string]any{"command": ev[0], "args": ev[1:]},
		"demo": map[string]any{"command": mcpwireBin, "args": []string{"__serve-mcptest"}},
	}})
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	page := inspector(t, "--config", cfg)
	ctx := browser(t)
	run(t, ctx, "open get-sum on ev",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#servers .server[data-server="ev"] .badge.state-connected`)),
		chromedp.WaitVisible(css(`#servers .server[data-server="demo"] .badge.state-connected`)),
		pick("ev"),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="get-sum"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#tool-detail [name="a"]`)),
	)
	run(t, ctx, "pick demo",
		pick("demo"),
		chromedp.WaitVisible(css(`li[data-tool="add"]`)),
		chromedp.WaitNotPresent(css(`#tool-detail #call`)),
	)
	run(t, ctx, "demo's own tool opens and runs there",
		chromedp.Click(css(`li[data-tool="add"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
	)
	if head := get(t, ctx, "read the call's server", chromedp.Text(css(`#call-result .result-head strong`))); head != "demo / add" {
		t.Errorf("the call ran as %q, want demo / add", head)
	}
}
