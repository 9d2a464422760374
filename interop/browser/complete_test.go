package browser

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Against the reference server: a resource template's variable and a
// prompt's arguments are completed by the server (the second argument's
// completions depend on the first), the template's URI is filled and
// read; a subscribed resource is read again when the server says it
// changed.
func TestServerEverythingCompleteAndSubscribe(t *testing.T) {
	page := inspector(t, everything(t)...)
	ctx := browser(t)
	options := func(input string) string {
		return `[...document.getElementById(document.querySelector("` + input + `").getAttribute("list")).options].map((o) => o.value).join(",")`
	}
	run(t, ctx, "fill a template with completion",
		chromedp.Navigate(page),
		tab("resources"),
		chromedp.Click(css(`li[data-template="demo://resource/dynamic/text/{resourceId}"]`), chromedp.NodeVisible),
		chromedp.SendKeys(css(`#template-resourceId`), "3", chromedp.NodeVisible),
		chromedp.Poll[chromedp.Void](options("#template-resourceId")+` === "3"`),
		chromedp.Poll[chromedp.Void](`document.querySelector("#template-uri").textContent === "demo://resource/dynamic/text/3"`),
		chromedp.Click(css(`#template-read`)),
		chromedp.Poll[chromedp.Void](`document.querySelector("#read-result").textContent.includes("Resource 3")`),
	)
	shot(t, ctx, "everything-template")
	run(t, ctx, "a prompt's arguments completed",
		tab("prompts"),
		chromedp.Click(css(`li[data-prompt="completable-prompt"]`), chromedp.NodeVisible),
		chromedp.SendKeys(css(`#prompt-department`), "E", chromedp.NodeVisible),
		chromedp.Poll[chromedp.Void](options("#prompt-department")+` === "Engineering"`),
		chromedp.SetValue(css(`#prompt-department`), "Sales"),
		chromedp.SendKeys(css(`#prompt-name`), "", chromedp.NodeVisible),
		chromedp.Focus(css(`#prompt-name`)),
		chromedp.Poll[chromedp.Void](options("#prompt-name")+` === "David,Eve,Frank"`),
	)
	shot(t, ctx, "everything-prompt-complete")
	run(t, ctx, "subscribe and see updates",
		tab("resources"),
		chromedp.Click(css(`li[data-uri^="demo://resource/static/document/"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#read-result .resource`)),
		chromedp.Click(css(`#subscribe`), chromedp.NodeVisible),
		chromedp.Poll[chromedp.Void](`document.querySelector("#subscribe-status").textContent === "subscribed"`),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="toggle-subscriber-updates"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
		tab("resources"),
		chromedp.Poll[chromedp.Void](`document.querySelector("#subscribe-status").textContent.includes("updated")`),
	)
	uri := get(t, ctx, "the resource on show", chromedp.Evaluate[string](`document.querySelector("#read-result").dataset.uri`))
	reads := get(t, ctx, "count its reads", chromedp.Evaluate[int](`state.wire.filter((e) => e.direction === "send" && e.method === "resources/read" && e.message.params.uri === `+"`"+uri+"`"+`).length`))
	if reads < 2 {
		t.Errorf("%s was read %d times, want again after its update", uri, reads)
	}
	if subs := get(t, ctx, "find the subscription", chromedp.Evaluate[int](`state.wire.filter((e) => e.direction === "send" && e.method === "resources/subscribe").length`)); subs != 1 {
		t.Errorf("%d resources/subscribe on the wire, want 1", subs)
	}
	if !strings.HasPrefix(uri, "demo://resource/static/document/") {
		t.Errorf("the resource on show is %q", uri)
	}
	shot(t, ctx, "everything-subscribe")
}
