package browser

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// basicApp returns the command that runs the MCP Apps example server
// (@modelcontextprotocol/server-basic-vanillajs, installed in
// interop/node_modules) over stdio: its get-time tool links the view
// ui://get-time/mcp-app.html, which calls get-time again from a button.
func basicApp(t *testing.T) []string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "node_modules", "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("server-basic-vanillajs is not installed (cd interop && npm ci): %v", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("no node to run the MCP App: %v", err)
	}
	return []string{"--", node, script, "--stdio"}
}

// sameProcessFrames keeps a sandboxed frame without allow-same-origin in
// its parent's process (Chrome otherwise gives it one of its own), so that
// the test reaches the view's frame through the page's DOM. What the view
// may reach (origin, CSP) does not depend on the process it runs in.
var sameProcessFrames = chromedp.Flag("disable-features", "IsolateSandboxedIframes")

// inFrame calls fn, a JavaScript function, with this bound to the
// document of the frame that the iframe element holds, in that frame's own
// JavaScript world (so the frame's CSP and origin apply to what fn does).
// A promise fn returns is awaited; its value, decoded as JSON, is T.
func inFrame[T any](t *testing.T, ctx context.Context, what string, frame *chromedp.Node, fn string) T {
	t.Helper()
	return get(t, ctx, what, chromedp.Action[T](func(ctx context.Context, tg *chromedp.Target) (T, error) {
		var v T
		// The frame's document now, not the one it had when found.
		desc, err := cdp.Call(ctx, tg, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: frame.BackendNodeID})
		if err != nil {
			return v, err
		}
		if desc.Node.ContentDocument == nil {
			return v, errors.New("the iframe has no document in this page's process")
		}
		doc, err := cdp.Call(ctx, tg, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: desc.Node.ContentDocument.BackendNodeID})
		if err != nil {
			return v, err
		}
		yes := true
		res, err := cdp.Call(ctx, tg, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: fn, ObjectID: doc.Object.ObjectID, AwaitPromise: &yes, ReturnByValue: &yes})
		if err != nil {
			return v, err
		}
		if res.ExceptionDetails != nil {
			return v, &chromedp.ExceptionError{ExceptionDetails: res.ExceptionDetails}
		}
		return v, json.Unmarshal([]byte(res.Result.Value), &v)
	}))
}

// waitText is a function for inFrame: it resolves with the text of the
// element with id once that text matches re, watching the document's
// changes (no polling).
func waitText(id, re string) string {
	return `function () {
  const el = this.getElementById(` + jsString(id) + `), re = new RegExp(` + jsString(re) + `);
  return new Promise((resolve) => {
    const check = () => { if (re.test(el.textContent)) { resolve(el.textContent); return true; } return false; };
    if (!check()) { const mo = new MutationObserver(() => { if (check()) mo.disconnect(); }); mo.observe(el, { childList: true, characterData: true, subtree: true }); }
  });
}`
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// The real MCP App renders in the inspector: the view gets the tool's
// result from the page, its button calls the server's tool through the
// page (both calls are on the wire, the view's request beside them), and
// from inside the view neither the page's origin, nor its DOM, nor any
// origin its CSP does not declare can be reached.
func TestMCPAppViewRendersAndIsConfined(t *testing.T) {
	var hits atomic.Int64 // requests that reached the outside server
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write(pixel) // so that an image that is let through loads
	}))
	defer outside.Close()

	page := inspector(t, basicApp(t)...)
	pageOrigin := regexp.MustCompile(`^http://[^/]+`).FindString(page)
	ctx := browser(t, sameProcessFrames)
	run(t, ctx, "call get-time and render its view",
		chromedp.Navigate(page),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="get-time"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
		chromedp.WaitVisible(css(`#app-view iframe.app-frame`)),
	)
	outer := get(t, ctx, "the sandbox frame", chromedp.Nodes(css(`#app-view iframe.app-frame`)))[0]
	if sb := outer.AttributeValue("sandbox"); sb != "allow-scripts allow-same-origin" {
		t.Errorf("the sandbox proxy's frame has sandbox=%q", sb)
	}
	run(t, ctx, "the view says it is initialized",
		chromedp.WaitReady(css(`#wire tr[data-method="ui/notifications/initialized"]`)))
	inner := get(t, ctx, "the view's frame element", chromedp.Nodes(css(`iframe`), chromedp.FromNode(outer)))[0]
	if sb := inner.AttributeValue("sandbox"); sb != "allow-scripts allow-forms" {
		t.Errorf("the view's frame has sandbox=%q, want allow-scripts allow-forms", sb)
	}
	if o, p := strings.TrimSuffix(outer.AttributeValue("src"), "/"), pageOrigin; strings.HasPrefix(o, p+"/") {
		t.Errorf("the sandbox %s is served from the page's origin %s", o, p)
	}

	// The tool's result reached the view (ui/notifications/tool-result).
	iso := `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`
	first := inFrame[string](t, ctx, "the view shows the first result", inner, waitText("server-time", iso))
	wantFirst := get(t, ctx, "the first result's time", chromedp.Evaluate[string](
		`[...state.calls.values()][0].result.structuredContent.time`))
	if first != wantFirst {
		t.Errorf("the view shows %q, the call returned %q", first, wantFirst)
	}

	// The view's own button: a tools/call from the view, through the page,
	// to the server.
	run(t, ctx, "click the view's Get Server Time button", chromedp.Click(css(`#get-time-btn`), chromedp.FromNode(inner), chromedp.NodeVisible))
	second := inFrame[string](t, ctx, "the view shows its own call's result", inner,
		waitText("server-time", `^(?!`+regexp.QuoteMeta(first)+`$)\d{4}-`))
	run(t, ctx, "the wire shows the view's call and the server's",
		chromedp.WaitReady(css(`#wire tr.entry.receive[data-method="tools/call"][data-kind="request"]`)), // from the view
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#wire tr.entry.send[data-method="tools/call"][data-kind="request"]').length >= 2`),
	)
	fromServer := get(t, ctx, "the server's answer to the view's call", chromedp.Evaluate[string](
		`state.wire.filter((e) => e.server === "node" && e.kind === "result" && e.method === "tools/call").map((e) => e.message.result.structuredContent.time).pop()`))
	if second != fromServer {
		t.Errorf("the view shows %q after its call, the server answered %q", second, fromServer)
	}
	viewLog := get(t, ctx, "the view's messages on the wire", chromedp.Evaluate[[]string](
		`state.wire.filter((e) => e.server.includes("app view")).map((e) => e.direction + " " + (e.method || ""))`))
	for _, want := range []string{"receive ui/initialize", "send ui/initialize", "receive ui/notifications/initialized",
		"send ui/notifications/tool-input", "send ui/notifications/tool-result", "receive tools/call", "receive ui/notifications/size-changed"} {
		if !contains(viewLog, want) {
			t.Errorf("the wire log of the view lacks %q: %q", want, viewLog)
		}
	}
	// Open-link and a log line from the view are served and on the wire.
	run(t, ctx, "the view asks to open a link and logs",
		chromedp.Click(css(`#open-link-btn`), chromedp.FromNode(inner), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#app-view a.app-link[href="https://modelcontextprotocol.io/"]`)),
		chromedp.WaitReady(css(`#wire tr.entry.send[data-method="ui/open-link"][data-kind="result"]`)))
	run(t, ctx, "the view logs",
		chromedp.Click(css(`#send-log-btn`), chromedp.FromNode(inner), chromedp.NodeVisible),
		chromedp.Poll[chromedp.Void](`[...document.querySelectorAll("#notes tr")].some((tr) => tr.cells[1].textContent.includes("app view") && tr.cells[2].textContent === "notifications/message")`),
	)
	shot(t, ctx, "inspect-apps")

	// From inside the view: its origin is opaque, the page's DOM is out of
	// reach, and the CSP blocks the page's origin and undeclared ones.
	probe := inFrame[viewProbe](t, ctx, "probe the view's confinement", inner, `async function () {
  const win = this.defaultView, out = {};
  const reach = (f) => { try { f(); return "reached"; } catch (e) { return "blocked: " + e.name; } };
  out.origin = win.origin;
  out.parent = reach(() => win.parent.document.body);
  out.top = reach(() => win.top.document.body);
  out.cookie = reach(() => this.cookie);
  const fetchIt = async (u) => { try { await win.fetch(u, { mode: "no-cors" }); return "reached"; } catch (e) { return "blocked: " + e.name; } };
  out.pageFetch = await fetchIt(`+jsString(strings.SplitN(page, "?", 2)[0]+"api/servers")+`);
  out.outsideFetch = await fetchIt(`+jsString(outside.URL+"/data")+`);
  out.outsideImage = await new Promise((resolve) => {
    const img = this.createElement("img");
    img.onload = () => resolve("reached");
    img.onerror = () => resolve("blocked");
    img.src = `+jsString(outside.URL+"/pixel.png")+`;
    this.body.append(img);
  });
  return out;
}`)
	if probe.Origin != "null" {
		t.Errorf("the view's origin is %q, want an opaque one (null)", probe.Origin)
	}
	for what, got := range map[string]string{"the parent's DOM": probe.Parent, "the page's DOM": probe.Top, "cookies": probe.Cookie,
		"a fetch to the page's origin": probe.PageFetch, "a fetch outside the CSP": probe.OutsideFetch, "an image outside the CSP": probe.OutsideImage} {
		if !strings.HasPrefix(got, "blocked") {
			t.Errorf("from the view, %s: %s", what, got)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the outside server was reached %d times from the view", n)
	}
}

// pixel is a 1x1 transparent GIF.
var pixel = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// viewProbe is what the view could reach; a fetch in no-cors mode that
// no CSP stops resolves (with an opaque answer), so "blocked" there is the
// CSP's doing.
type viewProbe struct {
	Origin       string `json:"origin"`
	Parent       string `json:"parent"`
	Top          string `json:"top"`
	Cookie       string `json:"cookie"`
	PageFetch    string `json:"pageFetch"`
	OutsideFetch string `json:"outsideFetch"`
	OutsideImage string `json:"outsideImage"`
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
