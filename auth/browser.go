package auth

import (
	"context"

	opener "github.com/mcpwire/mcpwire/internal/browser"
)

// openBrowser opens url in the user's default browser (see browser.Open:
// it fails without a graphical session, and the caller shows the URL).
func openBrowser(ctx context.Context, url string) error { return opener.Open(ctx, url) }
