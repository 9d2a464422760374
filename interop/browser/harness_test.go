package browser

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

// stepTimeout bounds each browser step: a page that never shows what is
// awaited fails the test instead of hanging it.
const stepTimeout = 45 * time.Second

// inspector runs "mcpwire inspect --no-open ARGS" and returns the URL it
// printed (with its token). Cleanup interrupts it as Ctrl-C would and
// checks that it ends cleanly.
func inspector(t testing.TB, args ...string) string {
	t.Helper()
	return inspectorWith(t, nil, append([]string{"--no-open"}, args...)...)
}

// inspectorWith runs "mcpwire inspect ARGS" with env added to its
// environment, as inspector does.
func inspectorWith(t testing.TB, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(mcpwireBin, append([]string{"inspect"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 130) {
			t.Errorf("mcpwire inspect after Ctrl-C: %v, want exit 130", err)
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL mcpwire inspect prints: %v", err)
	}
	u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]+/\?token=[A-Za-z0-9_-]+`).FindString(line)
	if u == "" {
		t.Fatalf("no URL with a token in %q", line)
	}
	return u
}

// browser starts a fresh headless Chromium (its own profile, no network
// chatter, and the extra options) and returns its context.
func browser(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("no Chromium at %s (apt-get install chromium): %v", chromiumPath, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
	}
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// The page must throw no error, whatever the test looks at.
	var mu sync.Mutex
	var thrown []string
	// Listen starts the browser, which lives as long as ctx.
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg = d.Exception.Description
			}
			mu.Lock()
			thrown = append(thrown, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range thrown {
			t.Errorf("the page threw: %s", e)
		}
	})
	return ctx
}

// run runs the browser steps, failing the test on the first error.
func run(t testing.TB, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(step, steps...); err != nil {
		shot(t, ctx, "failed-"+t.Name())
		t.Fatalf("%s: %v", what, err)
	}
}

// get runs one browser action that reads something and returns it.
func get[T any](t testing.TB, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(step, a)
	if err != nil {
		shot(t, ctx, "failed-"+t.Name())
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// css is a CSS selector.
type css = chromedp.CSS

// artifacts is where screenshots go (ignored by git); MCPWIRE_ARTIFACTS
// moves it.
func artifacts(t testing.TB) string {
	dir := os.Getenv("MCPWIRE_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shot saves a full-page screenshot as NAME.png in the artifacts dir.
func shot(t testing.TB, ctx context.Context, name string) {
	step, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	png, err := chromedp.Run(step, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(artifacts(t), filepath.Base(name)+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

// tab opens one of the page's tabs.
func tab(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(css(`#tabs button[data-tab="` + name + `"]`))
}
