package browser

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcpwire/mcpwire/mcptest"
)

// bookSchema has what a form generator gets wrong: a nested object with a
// required member, an enum, a nullable field, an array, and a default.
const bookSchema = `{"type":"object","properties":{
 "trip":{"type":"object","description":"where and how long","properties":{"city":{"type":"string"},"nights":{"type":"integer","minimum":1}},"required":["city"]},
 "class":{"enum":["economy","business"],"description":"cabin"},
 "note":{"type":["string","null"]},
 "tags":{"type":"array","items":{"type":"string"}},
 "seats":{"type":"integer","default":1}},
 "required":["trip","class"]}`

// bookServer is an HTTP MCP server whose "book" tool returns its
// arguments as JSON text.
func bookServer(t *testing.T) string {
	srv := mcptest.NewDefault(nil)
	srv.AddTool(mcptest.Tool{Name: "book", Description: "Books a trip; echoes what it was given.", InputSchema: json.RawMessage(bookSchema)},
		func(_ context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
			return mcptest.TextResult(string(req.Arguments)), nil
		})
	srv.AddTool(mcptest.Tool{Name: "mixed", Description: "Fails, with a sound and an embedded resource."},
		func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
			return &mcptest.ToolResult{IsError: true, Content: []mcptest.Content{
				mcptest.TextContent("it went wrong"),
				{Type: "audio", MIMEType: "audio/wav", Data: wav()},
				{Type: "resource", Resource: &mcptest.ResourceContents{URI: "demo://log", MIMEType: "text/plain", Text: "line 1 of the log"}},
			}}, nil
		})
	return mcptest.NewHTTPServer(t, srv, nil).URL
}

// wav is a tenth of a second of silence: 8 kHz, 8-bit mono PCM.
func wav() []byte {
	const samples = 800
	le32 := func(v int) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
	var b []byte
	b = append(b, "RIFF"...)
	b = append(b, le32(36+samples)...)
	b = append(b, "WAVEfmt "...)
	b = append(b, le32(16)...)
	b = append(b, 1, 0, 1, 0) // PCM, mono
	b = append(b, le32(8000)...)
	b = append(b, le32(8000)...)
	b = append(b, 1, 0, 8, 0) // block align 1, 8 bits
	b = append(b, "data"...)
	b = append(b, le32(samples)...)
	for range samples {
		b = append(b, 128)
	}
	return b
}

func jsonEqual(t *testing.T, got string, want any) {
	t.Helper()
	var g any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("not JSON: %q: %v", got, err)
	}
	w, _ := json.Marshal(want)
	var wv any
	_ = json.Unmarshal(w, &wv)
	if !reflect.DeepEqual(g, wv) {
		t.Fatalf("got %s, want %s", got, w)
	}
}

// The form built from inputSchema fills a nested object, an enum and a
// null; the call's result and its wire entries show; raw JSON mode
// round-trips with the form.
func TestToolForm(t *testing.T) {
	page := inspector(t, bookServer(t))
	ctx := browser(t)
	run(t, ctx, "open the page and the tool",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#live`)),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="book"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`[name="trip.city"]`)),
	)
	if seats := get(t, ctx, "read seats", chromedp.Value(css(`[name="seats"]`))); seats != "1" {
		t.Errorf("the default of seats shows %q, want 1", seats)
	}
	run(t, ctx, "fill the form",
		chromedp.SetValue(css(`[name="trip.city"]`), "Lisbon"),
		chromedp.SetValue(css(`[name="trip.nights"]`), "3"),
		chromedp.SetValue(css(`[name="class"]`), "1"), // the second enum value
		chromedp.Click(css(`[data-null="note"]`)),
		chromedp.Click(css(`[data-add="tags"]`)),
		chromedp.SetValue(css(`[name="tags[0]"]`), "sea"),
	)
	want := map[string]any{"trip": map[string]any{"city": "Lisbon", "nights": 3}, "class": "business", "note": nil, "tags": []string{"sea"}, "seats": 1}
	run(t, ctx, "switch to raw JSON", chromedp.Click(css(`#raw-toggle`)), chromedp.WaitVisible(css(`#raw-args`)))
	raw := get(t, ctx, "read the raw JSON", chromedp.Value(css(`#raw-args`)))
	jsonEqual(t, raw, want)
	// Edit the JSON and go back: the form shows the edit.
	run(t, ctx, "edit the raw JSON and go back to the form",
		chromedp.SetValue(css(`#raw-args`), strings.Replace(raw, "Lisbon", "Porto", 1)),
		chromedp.Click(css(`#raw-toggle`)),
		chromedp.WaitVisible(css(`[name="trip.city"]`)))
	if city := get(t, ctx, "read the city", chromedp.Value(css(`[name="trip.city"]`))); city != "Porto" {
		t.Fatalf("after the raw edit the form's city is %q", city)
	}
	want["trip"].(map[string]any)["city"] = "Porto"
	run(t, ctx, "call",
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#call-result [data-state="done"] pre.text`)))
	jsonEqual(t, get(t, ctx, "read the result", chromedp.Text(css(`#call-result [data-state="done"] pre.text`))), want)
	if d := get(t, ctx, "read the time taken", chromedp.Text(css(`#call-result .duration`))); !strings.HasSuffix(strings.TrimSpace(d), "ms") {
		t.Errorf("time taken: %q", d)
	}
	shot(t, ctx, "tool-form")
	run(t, ctx, "the call's request and result are on the wire",
		tab("wire"),
		chromedp.WaitVisible(css(`#wire tr[data-method="tools/call"][data-kind="request"]`)),
		chromedp.WaitVisible(css(`#wire tr[data-method="tools/call"][data-kind="result"]`)),
		chromedp.Click(css(`#wire tr[data-method="tools/call"][data-kind="request"]`)),
		chromedp.WaitVisible(css(`#wire-detail pre`)),
		// Over HTTP the exchange's status and Mcp-* headers show too.
		chromedp.WaitVisible(css(`#wire-detail table.http-headers`)),
	)
	expanded := get(t, ctx, "read the expanded message", chromedp.Text(css(`#wire-detail pre`)))
	if !strings.Contains(expanded, `"Porto"`) || !strings.Contains(expanded, `"tools/call"`) {
		t.Fatalf("expanded request: %s", expanded)
	}
	if status := get(t, ctx, "read the HTTP status", chromedp.Text(css(`#wire tr.selected td.http`))); !strings.HasPrefix(status, "200") {
		t.Errorf("the request's HTTP status shows %q", status)
	}
	if hdrs := get(t, ctx, "read the headers", chromedp.Text(css(`#wire-detail table.http-headers`))); !strings.Contains(hdrs, "Mcp-") {
		t.Errorf("the exchange's headers: %q", hdrs)
	}
	shot(t, ctx, "wire")
}

// An isError result is marked; audio plays from a data: URL (the CSP lets
// it in) and an embedded resource shows its text.
func TestErrorAudioEmbedded(t *testing.T) {
	page := inspector(t, bookServer(t))
	ctx := browser(t)
	run(t, ctx, "call the failing tool",
		chromedp.Navigate(page),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="mixed"]`), chromedp.NodeVisible),
		chromedp.Click(css(`#call`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#call-result .result.is-error .verdict-error`)),
		chromedp.Poll[chromedp.Void](`document.querySelector("#call-result audio").readyState >= 1`),
	)
	if n := get(t, ctx, "count the fields of a tool without arguments", chromedp.Evaluate[int](`document.querySelectorAll("#tool-detail fieldset .field").length`)); n != 0 {
		t.Errorf("a tool without arguments has %d fields", n)
	}
	if d := get(t, ctx, "the audio's length", chromedp.Evaluate[float64](`document.querySelector("#call-result audio").duration`)); d < 0.09 || d > 0.11 {
		t.Errorf("audio duration %v, want 0.1s", d)
	}
	if text := get(t, ctx, "the embedded resource", chromedp.Text(css(`#call-result .resource pre.text`))); text != "line 1 of the log" {
		t.Errorf("embedded resource shows %q", text)
	}
	shot(t, ctx, "is-error")
}

// A slow tool shows its progress; Cancel stops it, and the wire log shows
// notifications/cancelled going to the server.
func TestSlowCallCancel(t *testing.T) {
	page := inspector(t, "--", mcpwireBin, "__serve-mcptest")
	ctx := browser(t)
	run(t, ctx, "start the slow tool and see progress",
		chromedp.Navigate(page),
		tab("tools"),
		chromedp.Click(css(`li[data-tool="slow"]`), chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="steps"]`), "100000", chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="delay_ms"]`), "20"),
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#call-result progress.call-progress[max="100000"]`)),
	)
	if p := get(t, ctx, "read the progress", chromedp.Text(css(`#call-result .progress-text`))); !strings.Contains(p, "of 100000") {
		t.Errorf("progress text %q", p)
	}
	shot(t, ctx, "progress")
	run(t, ctx, "cancel it",
		chromedp.Click(css(`#call-result button.cancel`)),
		chromedp.WaitVisible(css(`#call-result [data-state="cancelled"]`)),
		tab("wire"),
		chromedp.WaitVisible(css(`#wire tr[data-method="notifications/cancelled"]`)),
	)
	if dir := get(t, ctx, "read its direction", chromedp.Text(css(`#wire tr[data-method="notifications/cancelled"] td:nth-child(3)`))); !strings.Contains(dir, "send") {
		t.Errorf("notifications/cancelled went %q, want send", dir)
	}
}

// Read a resource, get a prompt with an argument, and re-run a call from
// the history.
func TestResourcePromptHistory(t *testing.T) {
	page := inspector(t, "--", mcpwireBin, "__serve-mcptest")
	ctx := browser(t)
	run(t, ctx, "read a resource",
		chromedp.Navigate(page),
		tab("resources"),
		chromedp.Click(css(`li[data-uri="`+mcptest.HelloURI+`"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`#read-result pre.text`)),
	)
	if read := get(t, ctx, "read the text", chromedp.Text(css(`#read-result pre.text`))); read != mcptest.HelloText {
		t.Errorf("read %q, want %q", read, mcptest.HelloText)
	}
	run(t, ctx, "get a prompt",
		tab("prompts"),
		chromedp.Click(css(`li[data-prompt="summarize"]`), chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="prompt-topic"]`), "otters", chromedp.NodeVisible),
		chromedp.Click(css(`#get-prompt`)),
		chromedp.WaitVisible(css(`#prompt-result .message`)),
	)
	if p := get(t, ctx, "read the prompt", chromedp.Text(css(`#prompt-result`))); !strings.Contains(p, "otters") {
		t.Errorf("prompt: %q", p)
	}
	run(t, ctx, "call echo, then re-run it from the history",
		tab("tools"),
		chromedp.Click(css(`li[data-tool="echo"]`), chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="message"]`), "again and again", chromedp.NodeVisible),
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
		tab("history"),
		chromedp.Click(css(`[data-history="1"] button.rerun`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`[data-history="2"] [data-state="done"]`)),
	)
	n := get(t, ctx, "count the history", chromedp.Evaluate[int](`document.querySelectorAll("#history .history-item").length`))
	again := get(t, ctx, "read the re-run's result", chromedp.Text(css(`[data-history="2"] pre.text`)))
	if n != 2 || again != "again and again" {
		t.Fatalf("history has %d calls; the re-run returned %q", n, again)
	}
	run(t, ctx, "edit the first call, run it, and compare it with the one before",
		chromedp.Click(css(`[data-history="1"] button.edit`), chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="message"]`), "once more", chromedp.NodeVisible),
		chromedp.Click(css(`#call`)),
		chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
		tab("history"),
		chromedp.Click(css(`[data-history="3"] button.compare-open`), chromedp.NodeVisible),
		chromedp.WaitVisible(css(`[data-history="3"] .compare-result .diff-add`)),
	)
	if del := get(t, ctx, "read what went", chromedp.Text(css(`[data-history="3"] .diff-del`))); !strings.Contains(del, "again and again") {
		t.Errorf("the comparison's removed line: %q", del)
	}
	if add := get(t, ctx, "read what came", chromedp.Text(css(`[data-history="3"] .diff-add`))); !strings.Contains(add, "once more") {
		t.Errorf("the comparison's added line: %q", add)
	}
	shot(t, ctx, "history")
}

// The notifications view: the level asked of the server filters what it
// sends, and the view's own level filter hides what is below it.
func TestNotificationsLevel(t *testing.T) {
	page := inspector(t, "--", mcpwireBin, "__serve-mcptest")
	ctx := browser(t)
	logCall := func(level, msg string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(
			tab("tools"),
			chromedp.Click(css(`li[data-tool="log"]`), chromedp.NodeVisible),
			chromedp.SetValue(css(`[name="level"]`), level, chromedp.NodeVisible),
			chromedp.SetValue(css(`[name="message"]`), msg),
			chromedp.Click(css(`#call`)),
			chromedp.WaitVisible(css(`#call-result [data-state="done"]`)),
		)
	}
	run(t, ctx, "ask for warnings, then log an info and an error",
		chromedp.Navigate(page),
		tab("notifications"),
		chromedp.SetValue(css(`#note-level`), "warning", chromedp.NodeVisible),
		chromedp.Click(css(`#set-level`)),
		chromedp.Poll[chromedp.Void](`document.querySelector("#level-status").textContent.includes("asked")`),
		logCall("info", "quiet one"),
		logCall("error", "loud one"),
		tab("notifications"),
		chromedp.WaitVisible(css(`#notes tr`)),
	)
	notes := get(t, ctx, "read the notifications", chromedp.Text(css(`#notes`)))
	if !strings.Contains(notes, "loud one") || strings.Contains(notes, "quiet one") {
		t.Fatalf("notifications after asking for warnings: %q", notes)
	}
	run(t, ctx, "show only emergencies",
		chromedp.SetValue(css(`#note-level`), "emergency"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#note-level").dispatchEvent(new Event("change"))`),
		chromedp.Poll[chromedp.Void](`!document.querySelector("#notes").textContent.includes("loud one")`),
	)
}
