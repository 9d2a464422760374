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

// Open opens url in the user's browser: with $BROWSER when it is set,
// else with the system's opener: open on macOS, rundll32 on Windows,
// xdg-open elsewhere. On Linux and the BSDs the system opener fails
// without a graphical session (no DISPLAY or WAYLAND_DISPLAY), as over
// SSH, so the caller shows the URL instead.
//
// $BROWSER follows the convention other tools read it by: a list of
// commands separated as PATH is (":", ";" on Windows), tried in turn
// until one succeeds; in each, "%s" stands for the URL ("%%" for a
// percent sign), and a command without it gets the URL as its last
// argument. No shell reads it: the URL stays one argument, whatever it
// holds.
func Open(ctx context.Context, url string) error {
	if list := os.Getenv("BROWSER"); strings.TrimSpace(list) != "" {
		return openWithList(ctx, list, url)
	}
	var name string
	var args []string
	switch {
	case runtime.GOOS == "darwin":
		name = "open"
	case runtime.GOOS == "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	case os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "":
		return errors.New("no graphical session to open a browser in")
	default:
		name = "xdg-open"
	}
	return run(ctx, name, append(args, url))
}

// openWithList tries each command of $BROWSER's list (see Open).
func openWithList(ctx context.Context, list, url string) error {
	var errs []error
	for _, entry := range strings.Split(list, string(os.PathListSeparator)) {
		fields := strings.Fields(entry)
		if len(fields) == 0 {
			continue
		}
		args, placed := make([]string, 0, len(fields)), false
		for _, f := range fields[1:] {
			if strings.Contains(f, "%s") {
				placed = true
			}
			args = append(args, withURL(f, url))
		}
		if !placed {
			args = append(args, url)
		}
		err := run(ctx, fields[0], args)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	if len(errs) == 0 {
		return errors.New("$BROWSER names no command")
	}
	return errors.Join(errs...)
}

// withURL puts url in place of each %s of an argument, and % for %%.
func withURL(arg, url string) string {
	var b strings.Builder
	for i := 0; i < len(arg); i++ {
		if arg[i] == '%' && i+1 < len(arg) {
			switch arg[i+1] {
			case 's':
				b.WriteString(url)
				i++
				continue
			case '%':
				b.WriteByte('%')
				i++
				continue
			}
		}
		b.WriteByte(arg[i])
	}
	return b.String()
}

// run runs the opener name with args, bounded by openTimeout.
func run(ctx context.Context, name string, args []string) error {
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	if err := exec.CommandContext(ctx, name, args...).Run(); err != nil {
		return fmt.Errorf("opening the browser with %s: %w", name, err)
	}
	return nil
}
