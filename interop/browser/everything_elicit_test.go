package browser

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// server-everything's elicitation asks for every field type the
// specification allows, titled enums included. The form is taller than
// the window, and its buttons must still be reachable where a person
// clicks (a click lands on the coordinates of the button, which must be
// in view, and the whole tool list is below the sticky question); a
// titled enum is a choice of its titles, not a JSON box.
func TestServerEverythingElicitation(t *testing.T) {
	page := inspector(t, everything(t)...)
	ctx := browser(t)
	ask := `#asks [data-kind="elicitation"] `
	run(t, ctx, "call trigger-elicitation-request",
		chromedp.Navigate(page),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="trigger-elicitation-request"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(ask+`[name="name"]`)),
	)
	// A titled single select (oneOf of const and title), a titled multi
	// select's item (anyOf) and the legacy enumNames all offer their
	// titles.
	for field, title := range map[string]string{
		"titledSingleSelectEnum":      "Wonder Woman (hero-3)",
		"titledMultipleSelectEnum[0]": "Salmon (fish-2)",
		"legacyTitledEnum":            "Fish (pet-4)",
	} {
		js := `[...document.querySelectorAll('` + ask + `select[name="` + field + `"] option')].map((o) => o.textContent)`
		options := get(t, ctx, "read the choices of "+field, chromedp.Evaluate[[]string](js))
		if !strings.Contains(strings.Join(options, "|"), title) {
			t.Errorf("%s offers %q, want a choice %q", field, options, title)
		}
	}
	run(t, ctx, "fill the form and accept it",
		chromedp.SendKeys(css(ask+`[name="name"]`), "Ada"),
		chromedp.SetValue(css(ask+`select[name="titledSingleSelectEnum"]`), "2"), // Wonder Woman
		chromedp.SetValue(css(ask+`select[name="legacyTitledEnum"]`), "3"),       // Fish
		chromedp.Click(css(ask+`button.accept`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
	)
	shot(t, ctx, "everything-elicitation")
	got := get(t, ctx, "read what the server got", chromedp.Text(css(`#call-result [data-state="done"]`)))
	for _, want := range []string{`"name": "Ada"`, `"titledSingleSelectEnum": "hero-3"`, `"legacyTitledEnum": "pet-4"`, `"titledMultipleSelectEnum": [`} {
		if !strings.Contains(got, want) {
			t.Errorf("the server got %s, want %s in it", got, want)
		}
	}
}

// A server that answers a call with -32042 (URL elicitation required)
// asks the person to open a page first: the failed call shows that page
// (server-everything names its own prerequisite, not the URL it was
// given), its site in bold and the whole URL as a link; called again,
// the server goes on and asks for the URL it was given.
func TestServerEverythingURLElicitationRequired(t *testing.T) {
	page := inspector(t, everything(t)...)
	ctx := browser(t)
	const given, prerequisite = "https://example.com/consent?step=1", "https://modelcontextprotocol.io/"
	run(t, ctx, "call trigger-url-elicitation by its error path",
		chromedp.Navigate(page),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="trigger-url-elicitation"]`), chromedp.NodeVisible),
		chromedp.SendKeys(css(`#tool-detail [name="url"]`), given, chromedp.NodeVisible),
		chromedp.SetValue(css(`#tool-detail [name="errorPath"]`), "true"),
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#call-result [data-state="failed"] .open-first a.open-url`)),
	)
	shot(t, ctx, "everything-url-elicitation-required")
	href := get(t, ctx, "read the link", chromedp.Evaluate[string](`document.querySelector("#call-result .open-first a.open-url").href`))
	host := get(t, ctx, "read the site", chromedp.Text(css(`#call-result .open-first .ask-host`)))
	said := get(t, ctx, "read the message", chromedp.Text(css(`#call-result .open-first p`)))
	if href != prerequisite || host != "modelcontextprotocol.io" || !strings.Contains(said, "prerequisite") {
		t.Errorf("the page to open: %q on site %q saying %q, want %q on modelcontextprotocol.io", href, host, said, prerequisite)
	}
	run(t, ctx, "call again: the server asks for the given URL",
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#asks [data-kind="elicitation-url"] a.ask-url`)),
	)
	if asked := get(t, ctx, "read the asked URL", chromedp.Text(css(`#asks [data-kind="elicitation-url"] a.ask-url`))); asked != given {
		t.Errorf("the server asked to open %q, want %q", asked, given)
	}
	run(t, ctx, "decline it",
		chromedp.Click(css(`#asks [data-kind="elicitation-url"] button.decline`)),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
	)
}
