package browser

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// Another web server on this machine (a dev server the user visits
	// next) gets no cookie of the inspector's, though the browser keeps
	// cookies per host, not per port.
	var mu sync.Mutex
	var sent []string
	dev := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		names := []string{} // names only: a failure must not print the token
		for _, c := range r.Cookies() {
			names = append(names, c.Name)
		}
		sent = append(sent, r.URL.Path+": "+strings.Join(names, " "))
		mu.Unlock()
		_, _ = io.WriteString(w, "<!doctype html><title>dev</title><p>dev server</p>")
	}))
	defer dev.Close()
	run(t, ctx, "visit another local server", chromedp.Navigate(dev.URL+"/"), chromedp.Navigate(dev.URL+"/s/"))
	mu.Lock()
	defer mu.Unlock()
	if len(sent) < 2 {
		t.Fatalf("the dev server saw %q, want both visits", sent)
	}
	for _, s := range sent {
		if strings.Contains(s, "mcpwire_inspect_") {
			t.Errorf("the dev server received the inspector's cookie: %s", s)
		}
	}
}
