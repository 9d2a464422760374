// Package browser opens a URL in the user's default browser: the OAuth
// sign-in and mcpwire inspect's page both need it.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// openTimeout bounds the opener command; xdg-open and open return as
// soon as they handed the URL over.
const openTimeout = 10 * time.Second

// Open opens url in the user's browser: with $BROWSER when it is set (a
// command, which gets the URL as its last argument), else with the
// system's opener: open on macOS, rundll32 on Windows, xdg-open elsewhere.
// On Linux and the BSDs the system opener fails without a graphical
// session (no DISPLAY or WAYLAND_DISPLAY), as over SSH, so the caller
// shows the URL instead.
func Open(ctx context.Context, url string) error {
	var name string
	var args []string
	switch fields := strings.Fields(os.Getenv("BROWSER")); {
	case len(fields) > 0:
		name, args = fields[0], fields[1:]
	case runtime.GOOS == "darwin":
		name = "open"
	case runtime.GOOS == "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	case os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "":
		return errors.New("no graphical session to open a browser in")
	default:
		name = "xdg-open"
	}
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, append(args, url)...)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("opening the browser with %s: %w", name, err)
	}
	return nil
}
