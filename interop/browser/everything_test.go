package browser

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// everything returns the command that runs server-everything (installed
// in interop/node_modules by .ci/run's npm ci) over stdio.
func everything(t *testing.T) []string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("server-everything is not installed (cd interop && npm ci): %v", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("no node to run server-everything: %v", err)
	}
	return []string{"--", node, script, "stdio"}
}

// search types text into the tool search as a person would (the list
// filters on input events).
func search(text string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(css(`#tool-search`), text, chromedp.NodeVisible)
}

// Against the reference server: an image shows inline (decoded, so the
// page's CSP lets data: images in), structuredContent is pretty-printed
// after an enum chosen in the form, and a resource link reads its
// resource when clicked.
func TestServerEverythingResults(t *testing.T) {
	page := inspector(t, everything(t)...)
	ctx := browser(t)
	run(t, ctx, "call get-tiny-image",
		chromedp.Navigate(page),
		tab("tools"),
		search("tiny"),
		chromedp.Click(css(`li[data-tool="get-tiny-image"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#call-result [data-state="done"] img.content`)),
	)
	if listed := get(t, ctx, "count the tools the search left", chromedp.Evaluate[int](`document.querySelectorAll("#tool-list li").length`)); listed != 1 {
		t.Errorf("searching %q left %d tools, want 1", "tiny", listed)
	}
	if w := get(t, ctx, "the image decoded", chromedp.Evaluate[int](`document.querySelector("#call-result img.content").naturalWidth`)); w == 0 {
		t.Error("the image did not decode")
	}
	shot(t, ctx, "everything-image")
	run(t, ctx, "call get-structured-content with an enum",
		chromedp.Navigate(page), // a fresh page: the search is empty again
		tab("tools"),
		chromedp.Click(css(`li[data-tool="get-structured-content"]`), chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="location"]`), "1", chromedp.NodeVisible), // Chicago
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#call-result [data-state="done"] pre.json`)),
	)
	var weather struct{ Temperature float64 }
	js := get(t, ctx, "read the structured content", chromedp.Text(css(`#call-result pre.json`)))
	if err := json.Unmarshal([]byte(js), &weather); err != nil || weather.Temperature != 36 || !strings.Contains(js, "\n  ") {
		t.Errorf("structuredContent %q (%v), want Chicago's, pretty-printed", js, err)
	}
	run(t, ctx, "follow a resource link",
		chromedp.Click(css(`li[data-tool="get-resource-links"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.Click(css(`#call-result .resource-link button`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#tab-resources #read-result .resource`)),
	)
}
