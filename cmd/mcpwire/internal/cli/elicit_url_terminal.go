package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/mcpwire/mcpwire/internal/browser"
	"github.com/mcpwire/mcpwire/mcp"
	"golang.org/x/net/idna"
)

// A URL-mode elicitation sends the person to a web page (a sign-in, a
// payment) that the server watches. On a terminal mcpwire shows the whole
// URL with its domain set apart, opens the browser only when the person
// agrees, and then waits until the server reports the elicitation
// complete (notifications/elicitation/complete) or the person says done.

// urlCompletions records the elicitation ids the servers reported complete,
// so that a wait started after the notification still ends.
type urlCompletions struct {
	mu      sync.Mutex
	done    map[string]bool
	waiters map[string][]chan struct{}
}

// complete is mcp.ClientOptions.OnElicitationComplete.
func (c *urlCompletions) complete(_ context.Context, e mcp.ElicitationComplete) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = map[string]bool{}
	}
	c.done[e.ElicitationID] = true
	for _, ch := range c.waiters[e.ElicitationID] {
		close(ch)
	}
	delete(c.waiters, e.ElicitationID)
}

// wait returns a channel closed once id is reported complete.
func (c *urlCompletions) wait(id string) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan struct{})
	if c.done[id] {
		close(ch)
		return ch
	}
	if c.waiters == nil {
		c.waiters = map[string][]chan struct{}{}
	}
	c.waiters[id] = append(c.waiters[id], ch)
	return ch
}

// askURL answers a URL-mode elicitation at the terminal.
func askURL(ctx context.Context, io *IOStreams, done *urlCompletions, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		fmt.Fprintf(io.ErrOut, "mcpwire: declined %s's URL: it is not an http(s) URL\n", asker(ctx))
		return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
	}
	shown := Sanitize(io.Redact(req.URL))
	// The message is indented, so that it cannot pass for the Domain and
	// URL lines, which are what the person checks.
	host := domainForReview(u.Hostname())
	detail := fmt.Sprintf("%s\n\nDomain: %s\nURL:    %s", sanitizeQuoted(io.Redact(req.Message), "  "), host, shown)
	var choice int
	err = io.ask(func(p Prompter) error {
		var err error
		choice, err = p.Select(ctx, Sanitize(asker(ctx))+" asks you to open a web page", detail,
			[]string{"open it in the browser", "I will open it myself", "decline"})
		return err
	})
	switch {
	case errors.Is(err, errPromptCancelled):
		return &mcp.ElicitResult{Action: mcp.ElicitCancel}, nil
	case err != nil:
		return nil, err
	case choice == 2:
		return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
	case choice == 0:
		if err := openBrowser(ctx, req.URL); err != nil {
			fmt.Fprintf(io.ErrOut, "mcpwire: %s; open the URL yourself: %s\n", Sanitize(io.Redact(err.Error())), shown)
		}
	}
	// Wait for the server's word or the person's, whichever comes first.
	waitCtx, stop := context.WithCancel(ctx)
	defer stop()
	if req.ElicitationID != "" {
		ch := done.wait(req.ElicitationID)
		go func() {
			select {
			case <-ch:
				stop()
			case <-waitCtx.Done():
			}
		}()
	}
	err = io.ask(func(p Prompter) error {
		_, err := p.Select(waitCtx, "Waiting for the page at "+host+" to be completed", "Choose done once you have finished there.", []string{"done"})
		return err
	})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, errPromptCancelled):
		return &mcp.ElicitResult{Action: mcp.ElicitCancel}, nil
	case err != nil && waitCtx.Err() == nil:
		return nil, err
	}
	return &mcp.ElicitResult{Action: mcp.ElicitAccept}, nil
}

// openBrowser opens rawURL as every browser hand-over of mcpwire does
// ($BROWSER, else the system's opener; see browser.Open).
func openBrowser(ctx context.Context, rawURL string) error {
	return browser.Open(ctx, rawURL)
}

// domainForReview is a URL's host as the person checks it before opening
// it: an international name in the ASCII form the browser resolves
// (punycode), since its letters can copy another's ("раураl.com" in
// Cyrillic reads as paypal.com); the URL line shows it as written.
func domainForReview(host string) string {
	if isASCII(host) {
		return Sanitize(host)
	}
	ascii, ok := asciiDomain(host)
	if !ok {
		return Sanitize(host) + " (not a valid international domain name)"
	}
	return ascii + " (an international domain name, in ASCII)"
}

// asciiDomain is an international domain name in ASCII (punycode); false
// when it is not a valid one.
func asciiDomain(host string) (string, bool) {
	ascii, err := idna.Lookup.ToASCII(host)
	return ascii, err == nil
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
