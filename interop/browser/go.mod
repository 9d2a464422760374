module github.com/mcpwire/mcpwire/interop/browser

go 1.26.0

replace github.com/mcpwire/mcpwire => ../..

require (
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/mcpwire/mcpwire v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
