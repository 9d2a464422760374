package browser

import (
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The opener ($BROWSER, a script that writes down its arguments) gets a
// file:// URL, never the secret; the file it names is its owner's alone
// and leads to the URL, and remove takes it away.
func TestOpenPrivateKeepsTheURLOffTheCommandLine(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("$BROWSER is a shell script here")
	}
	dir := t.TempDir()
	argv := filepath.Join(dir, "argv")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > '"+argv+"'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", script)
	const secretURL = `http://127.0.0.1:8123/?token=s3cret-t0ken&x="<b>"`
	remove, err := OpenPrivate(t.Context(), secretURL)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(argv)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSuffix(string(b), "\n")
	if strings.Contains(got, "s3cret-t0ken") || !strings.HasPrefix(got, "file:///") || strings.Contains(got, "\n") {
		t.Fatalf("the opener got %q", got)
	}
	u, err := url.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	page := u.Path
	st, err := os.Stat(page)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the page's file: %v %v, want mode 0600", st, err)
	}
	if d, err := os.Stat(filepath.Dir(page)); err != nil || d.Mode().Perm() != 0o700 {
		t.Fatalf("the page's directory: %v %v, want mode 0700", d, err)
	}
	html, _ := os.ReadFile(page)
	for _, want := range []string{
		`content="0;url=http://127.0.0.1:8123/?token=s3cret-t0ken&amp;x=&#34;&lt;b&gt;&#34;"`,
		`window.location.replace("http://127.0.0.1:8123/?token=s3cret-t0ken\u0026x=\"\u003cb\u003e\"");`,
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page lacks %s:\n%s", want, html)
		}
	}
	remove()
	if _, err := os.Stat(filepath.Dir(page)); !os.IsNotExist(err) {
		t.Errorf("after remove: %v", err)
	}
}

// A failing opener is reported, with a remove to call all the same.
func TestOpenPrivateOpenerFails(t *testing.T) {
	t.Setenv("BROWSER", filepath.Join(t.TempDir(), "no-such-browser"))
	remove, err := OpenPrivate(t.Context(), "http://127.0.0.1:1/?token=x")
	if err == nil || !strings.Contains(err.Error(), "no-such-browser") {
		t.Fatalf("err = %v", err)
	}
	remove()
}

func TestFileURL(t *testing.T) {
	for p, want := range map[string]string{"/tmp/a b/open.html": "file:///tmp/a%20b/open.html"} {
		if got := fileURL(p); got != want {
			t.Errorf("fileURL(%q) = %q, want %q", p, got, want)
		}
	}
}
