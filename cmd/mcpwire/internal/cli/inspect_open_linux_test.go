package cli

import (
	"bufio"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// The browser is opened on a private file that leads to the page, not on
// the page's URL: its token must not stand in a command line, which every
// user of the machine can read. $BROWSER is a script that writes its
// arguments to a FIFO the test reads; the file it names is gone once
// inspect has ended.
func TestInspectOpensThePageWithoutTheTokenOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "argv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Read and write: opening does not wait for the script, and Close
	// ends a read that waits for it.
	argv, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer argv.Close()
	opened := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(argv).ReadString('\n')
		opened <- line
	}()
	t.Setenv("BROWSER", writeScript(t, dir, "browser", `printf '%s\n' "$*" > "`+fifo+`"`+"\n"))

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	urls := make(chan string, 1)
	done := make(chan result, 1)
	errOut := &syncBuffer{}
	go func() {
		done <- runIO(t, ctx, &IOStreams{Out: urlWriter{urls}, ErrOut: errOut}, append([]string{"inspect"}, server()...)...)
	}()
	var page, args string
	for page == "" || args == "" {
		select {
		case page = <-urls:
		case args = <-opened:
		case r := <-done:
			t.Fatalf("inspect ended early (%d): %s", r.code, errOut.String())
		}
	}
	pageURL, _ := url.Parse(page)
	token := pageURL.Query().Get("token")
	if token == "" || strings.Contains(args, token) || !strings.HasPrefix(args, "file:///") {
		t.Fatalf("the browser got %q (the page is %s)", args, page)
	}
	file, err := url.Parse(strings.TrimSpace(args))
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(file.Path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the file the browser got: %v %v, want mode 0600", st, err)
	}
	b, _ := os.ReadFile(file.Path)
	to := regexp.MustCompile(`content="0;url=([^"]+)"`).FindSubmatch(b)
	if to == nil || string(to[1]) != page {
		t.Fatalf("the file leads to %q, want %s:\n%s", to, page, b)
	}
	c, base := pageClient(t, string(to[1]))
	var servers []struct{ State string }
	getJSON(t, c, base+"/api/servers", &servers)
	if len(servers) != 1 || servers[0].State != "connected" {
		t.Fatalf("servers: %+v", servers)
	}
	cancel()
	if r := <-done; r.code != ExitInterrupted {
		t.Errorf("inspect exited %d: %s", r.code, errOut.String())
	}
	if _, err := os.Stat(filepath.Dir(file.Path)); !os.IsNotExist(err) {
		t.Errorf("the file's directory after inspect ended: %v", err)
	}
}
