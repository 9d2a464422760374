package browser

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A blob resource of a text type (server-everything's dynamic blob is
// text/plain) reads as its exact size, padding not counted, and its
// decoded text.
func TestServerEverythingTextBlob(t *testing.T) {
	page := inspector(t, everything(t)...)
	ctx := browser(t)
	run(t, ctx, "read a blob from the template",
		chromedp.Navigate(page),
		tab("resources"),
		chromedp.Click(css(`li[data-template="demo://resource/dynamic/blob/{resourceId}"]`), chromedp.NodeVisible),
		chromedp.SendKeys(css(`#template-resourceId`), "1", chromedp.NodeVisible),
		chromedp.Poll[chromedp.Void](`document.querySelector("#template-uri").textContent === "demo://resource/dynamic/blob/1"`),
		chromedp.Click(css(`#template-read`)),
		chromedp.WaitVisible(css(`#read-result .resource pre.text`)),
	)
	// The page's own decoding is the reference for the size.
	want := get(t, ctx, "decode the blob", chromedp.Evaluate[int](
		`api("api/read?server=" + encodeURIComponent(state.server), {uri: "demo://resource/dynamic/blob/1"}).then((r) => atob(r.contents[0].blob).length)`,
		chromedp.EvalAwaitPromise))
	shown := get(t, ctx, "read what the page shows", chromedp.Text(css(`#read-result .resource`)))
	if !strings.Contains(shown, " "+strconv.Itoa(want)+" bytes") || !strings.Contains(shown, "Resource 1: This is a base64 blob") {
		t.Errorf("the blob shows as %q, want %d bytes and its text", shown, want)
	}
}
