package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcpwire/mcpwire/mcptest"
)

// callTool opens a tool of the example server and calls it with the
// given form values.
func callTool(name string, values map[string]string) chromedp.Action[chromedp.Void] {
	steps := []chromedp.Action[chromedp.Void]{tab("tools"), chromedp.Click(css(`li[data-tool="`+name+`"]`), chromedp.NodeVisible)}
	for k, v := range values {
		steps = append(steps, chromedp.SetValue(css(`#tool-detail [name="`+k+`"]`), v, chromedp.NodeVisible))
	}
	return chromedp.Steps(append(steps, chromedp.Click(css(`#call`)))...)
}

// In both eras the page answers what the server asks: a form
// elicitation filled in the page's form, and a sampling request answered
// with a reply typed by the person. In the stateless era each is an
// input_required round held until the answer.
func TestAnswerElicitationAndSampling(t *testing.T) {
	for _, era := range []struct{ protocol, label string }{
		{"2025-11-25", "server request"},
		{"2026-07-28", "input_required (MRTR)"},
	} {
		t.Run(era.protocol, func(t *testing.T) {
			page := inspector(t, "--protocol", era.protocol, "--", mcpwireBin, "__serve-mcptest")
			ctx := browser(t)
			run(t, ctx, "call elicit and see the form",
				chromedp.Navigate(page),
				chromedp.WaitVisible(css(`#live`)),
				callTool("elicit", nil),
				chromedp.WaitVisible(css(`#asks [data-kind="elicitation"] [name="name"]`)),
			)
			if badge := get(t, ctx, "read the era", chromedp.Text(css(`#asks [data-kind="elicitation"] .badge`))); badge != era.label {
				t.Errorf("the question came as %q, want %q", badge, era.label)
			}
			shot(t, ctx, "elicitation-"+era.protocol)
			run(t, ctx, "fill it and accept",
				chromedp.SetValue(css(`#asks [name="name"]`), "Ada"),
				chromedp.SetValue(css(`#asks [name="color"]`), "2"), // blue
				chromedp.Click(css(`#asks [data-kind="elicitation"] button.accept`)),
				chromedp.WaitVisible(css(`#call-result [data-state="done"] pre.text`)),
				chromedp.WaitNotPresent(css(`#asks [data-kind="elicitation"]`)),
			)
			var got struct {
				Action  string
				Content map[string]any
			}
			text := get(t, ctx, "read what the server got", chromedp.Text(css(`#call-result [data-state="done"] pre.text`)))
			if err := json.Unmarshal([]byte(text), &got); err != nil || got.Action != "accept" || got.Content["name"] != "Ada" || got.Content["color"] != "blue" {
				t.Fatalf("the server got %s (%v)", text, err)
			}
			run(t, ctx, "call sample and answer it",
				callTool("sample", map[string]string{"prompt": "name a colour"}),
				chromedp.WaitVisible(css(`#asks [data-kind="sampling"] textarea.sampling-reply`)),
			)
			if asked := get(t, ctx, "read the request", chromedp.Text(css(`#asks [data-kind="sampling"]`))); !strings.Contains(asked, "name a colour") {
				t.Errorf("the sampling card shows %q, not the prompt", asked)
			}
			shot(t, ctx, "sampling-"+era.protocol)
			run(t, ctx, "reply",
				chromedp.SendKeys(css(`#asks textarea.sampling-reply`), "teal"),
				chromedp.Click(css(`#asks [data-kind="sampling"] button.accept`)),
				chromedp.WaitVisible(css(`#call-result [data-state="done"] pre.text`)),
			)
			if reply := get(t, ctx, "read the tool's result", chromedp.Text(css(`#call-result [data-state="done"] pre.text`))); reply != "teal" {
				t.Fatalf("the tool returned %q, want the typed reply", reply)
			}
		})
	}
}

// signInServer is an HTTP MCP server whose "sign-in" tool asks the client
// to open a page (URL-mode elicitation) and returns the answer.
func signInServer(t *testing.T) string {
	srv := mcptest.NewDefault(nil)
	srv.AddTool(mcptest.Tool{Name: "sign-in", Description: "Asks the person to open a sign-in page."},
		func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
			raw, err := req.Session.Elicit(ctx, map[string]any{"mode": "url", "message": "Sign in to the demo", "url": "https://sign-in.example/start?x=1", "elicitationId": "e1"})
			if err != nil {
				return mcptest.ErrorResult(err.Error()), nil
			}
			return mcptest.TextResult(string(raw)), nil
		})
	return mcptest.NewHTTPServer(t, srv, nil).URL
}

// A URL-mode elicitation shows where it leads before anything opens it,
// and its answer reaches the server; the roots typed on the page answer
// roots/list.
func TestAnswerURLElicitationAndRoots(t *testing.T) {
	page := inspector(t, signInServer(t))
	ctx := browser(t)
	run(t, ctx, "call sign-in",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#live`)),
		callTool("sign-in", nil),
		chromedp.WaitVisible(css(`#asks [data-kind="elicitation-url"] .ask-host`)),
	)
	if host := get(t, ctx, "read the host", chromedp.Text(css(`#asks .ask-host`))); host != "sign-in.example" {
		t.Errorf("the page names the site %q", host)
	}
	run(t, ctx, "decline",
		chromedp.Click(css(`#asks [data-kind="elicitation-url"] button.decline`)),
		chromedp.WaitVisible(css(`#call-result [data-state="done"] pre.text`)),
	)
	if got := get(t, ctx, "read the answer", chromedp.Text(css(`#call-result pre.text`))); got != `{"action":"decline"}` {
		t.Errorf("the server got %s", got)
	}
	run(t, ctx, "give a root and have the server ask for it",
		tab("servers"),
		chromedp.SetValue(css(`#roots-edit`), "file:///srv/project project", chromedp.NodeVisible),
		chromedp.Click(css(`#roots-save`)),
		chromedp.Poll[chromedp.Void](`document.querySelector("#roots-status").textContent.includes("told")`),
		callTool("roots", nil),
		chromedp.WaitVisible(css(`#call-result [data-state="done"] pre.text`)),
	)
	if got := get(t, ctx, "read the roots", chromedp.Text(css(`#call-result pre.text`))); !strings.Contains(got, "file:///srv/project") {
		t.Errorf("the server got roots %s", got)
	}
}
