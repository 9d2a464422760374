package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// OpenPrivate opens secretURL, a URL that carries a secret (a token in its
// query), without putting it on any command line: the opener and the
// browser it starts get the file:// URL of a page that sends the browser
// on to secretURL. Command lines are readable by every user of the
// machine (ps, /proc/*/cmdline), and a browser started by the opener
// keeps its arguments for as long as it runs; the page's file is
// readable by its owner alone (0600, in a directory of its own with mode
// 0700). remove deletes the file and its directory; the caller calls it
// when the URL is no longer served (the browser reads the file some time
// after the opener returned), also when err is not nil.
func OpenPrivate(ctx context.Context, secretURL string) (remove func(), err error) {
	dir, err := os.MkdirTemp("", "mcpwire-open-")
	if err != nil {
		return func() {}, fmt.Errorf("writing the page that opens the URL: %w", err)
	}
	remove = func() { _ = os.RemoveAll(dir) }
	path := filepath.Join(dir, "open.html")
	if err := writePrivate(path, redirectPage(secretURL)); err != nil {
		return remove, fmt.Errorf("writing the page that opens the URL: %w", err)
	}
	return remove, Open(ctx, fileURL(path))
}

// writePrivate creates path, which must not exist, readable by its owner
// only, with b in it.
func writePrivate(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// redirectPage is the HTML that sends a browser on to u: a meta refresh,
// and a script that replaces the page in the history (so Back does not
// land on a file that is gone), with a link for a browser that does
// neither.
func redirectPage(u string) []byte {
	attr := html.EscapeString(u)
	js, _ := json.Marshal(u) // escapes <, > and &: no "</script>" inside
	return []byte(`<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=` + attr + `">
<title>mcpwire</title>
<script>window.location.replace(` + string(js) + `);</script>
</head><body><p><a href="` + attr + `">Continue</a></p></body></html>
`)
}

// fileURL is the file:// URL of the absolute path p (on Windows,
// file:///C:/...).
func fileURL(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
