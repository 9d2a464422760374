package browser

import (
	"runtime"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// Without a graphical session there is nothing to open a browser in: the
// caller is told so, and shows the URL instead.
func TestOpenWithoutGraphicalSession(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	if err := Open(t.Context(), "http://127.0.0.1:1/"); err == nil && !darwinOrWindows() {
		t.Fatal("opened a browser without a graphical session")
	}
}

func darwinOrWindows() bool { return runtime.GOOS == "darwin" || runtime.GOOS == "windows" }
