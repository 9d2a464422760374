package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/mcpwire/mcpwire/internal/oauthtest"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A configured server behind OAuth, with no stored token: the page shows
// it as needing a sign-in. Sign in opens the authorization server in a
// new tab (the test server approves at once, or refuses when told); a
// refusal shows on the card and Try again signs in, after which the
// server connects through the manager and its tools are listed. No token
// reaches the page.
func TestSignInFromThePage(t *testing.T) {
	h := mcptest.NewDefault(nil).StreamableHTTPHandler(nil)
	as := oauthtest.Start(h)
	t.Cleanup(func() { as.Close(); h.Close() })
	t.Setenv("MCPWIRE_AUTH_DIR", t.TempDir()) // the inspector's token store, empty
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"secure": map[string]any{"type": "http", "url": as.URL}}})
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	page := inspector(t, "--config", cfg)
	ctx := browser(t)
	card := `#servers .server[data-server="secure"]`
	run(t, ctx, "the server needs a sign-in",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(card+` .badge.needs-signin`)),
		chromedp.WaitVisible(css(card+` button.signin-button`)),
	)
	shot(t, ctx, "signin-needed")

	// signIn clicks the card's button and waits until the tab it opened
	// shows the page of mcpwire's loopback listener (the redirect came).
	signIn := func(button, answer string) {
		t.Helper()
		opened := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool { return i.Type == "page" })
		run(t, ctx, "click "+button, chromedp.Click(css(card+` button.signin-button`), chromedp.NodeVisible))
		id, ok := <-opened
		if !ok {
			t.Fatal("no tab opened for the sign-in")
		}
		tab, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
		defer cancel()
		run(t, tab, "the authorization ends at the listener",
			chromedp.Poll[chromedp.Void](`document.body && document.body.innerText.includes(`+jsString(answer)+`)`))
	}

	as.DenyNext(1)
	signIn("Sign in", "Authorization failed")
	run(t, ctx, "the refusal shows",
		chromedp.Poll[chromedp.Void](`(document.querySelector('`+card+` [data-signin="failed"]') || {}).textContent?.includes("access_denied")`),
		chromedp.WaitVisible(css(card+` button.signin-button`)),
	)
	shot(t, ctx, "signin-refused")
	if txt := get(t, ctx, "the retry button", chromedp.Text(css(card+` button.signin-button`))); txt != "Try again" {
		t.Errorf("after a refusal the button says %q, want Try again", txt)
	}

	signIn("Try again", "Authorization complete")
	run(t, ctx, "the server connects",
		chromedp.WaitVisible(css(card+` .badge.state-connected`)),
		chromedp.WaitVisible(css(card+` [data-signin="signed-in"]`)),
	)
	shot(t, ctx, "signin-connected")
	run(t, ctx, "its tools are listed",
		tab("tools"),
		chromedp.WaitVisible(css(`li[data-tool="add"]`)),
	)
	seen := get(t, ctx, "what the page holds", chromedp.Evaluate[string](`document.documentElement.outerHTML + JSON.stringify(state.wire) + JSON.stringify(state.servers)`))
	tokens := as.Tokens()
	if len(tokens) != 1 {
		t.Errorf("%d tokens issued, want 1", len(tokens))
	}
	for _, tok := range tokens {
		if strings.Contains(seen, tok) {
			t.Error("the page holds the access token")
		}
	}
}
