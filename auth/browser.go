package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// browserTimeout bounds the opener command; xdg-open and open return as
// soon as they handed the URL over.
const browserTimeout = 10 * time.Second

// openBrowser opens url in the user's default browser with the system's
// opener: open on macOS, rundll32 on Windows, xdg-open elsewhere. On
// Linux and the BSDs it fails without a graphical session (no DISPLAY or
// WAYLAND_DISPLAY), as over SSH, so the caller shows the URL instead.
func openBrowser(ctx context.Context, url string) error {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no graphical session to open a browser in")
		}
		name = "xdg-open"
	}
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, append(args, url)...)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("opening the browser with %s: %w", name, err)
	}
	return nil
}
