// Package browser holds the tests that drive mcpwire inspect's page in a
// real headless Chromium (Debian's chromium, through chromedp). It is a
// module of its own so that the browser driver never enters the main
// module's dependencies.
package browser
