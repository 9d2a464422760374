package browser

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"
)

// The browser mcpwire inspect opens gets a file:// page, not the tokened
// URL, and that page leads to the inspector, signed in: the first visit
// comes from another site (the file), and the session cookie must still
// go with the page's own requests. $BROWSER is a script that hands the
// address it was given to the test through a FIFO.
func TestOpenedThroughThePrivateFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "opened")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	opened, err := os.OpenFile(fifo, os.O_RDWR, 0) // does not wait for a writer
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" > '"+fifo+"'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	page := inspectorWith(t, []string{"BROWSER=" + script}, "--", mcpwireBin, "__serve-mcptest")
	line, err := bufio.NewReader(opened).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	file := strings.TrimSpace(line)
	token := page[strings.Index(page, "token=")+len("token="):]
	if !strings.HasPrefix(file, "file:///") || strings.Contains(file, token) {
		t.Fatalf("the browser was opened on %q", file)
	}
	ctx := browser(t)
	run(t, ctx, "the file leads to the inspector, signed in",
		chromedp.Navigate(file),
		chromedp.WaitVisible(css(`#servers .server .badge.state-connected`)),
	)
	if at := get(t, ctx, "read the address", chromedp.Evaluate[string](`location.href`)); at != page[:strings.Index(page, "?")] {
		t.Errorf("the page is at %s, want %s without the token", at, page)
	}
}
