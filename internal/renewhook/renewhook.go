// Package renewhook is the seam between a transport that renews its session
// on its own (Streamable HTTP after a 404) and the client above it, which
// must set up on the new session what the old one held (resource
// subscriptions, the log level) before any other request reaches it.
//
// A stream that renews implements Hooker. While a renewal runs, the
// stream holds every Write back, except those whose ctx carries Restoring:
// the hook's own requests, which must reach the new session first.
package renewhook

import "context"

// Hooker is implemented by streams that renew their session. SetHook
// installs fn, which the stream calls after each renewal's handshake and
// before it lets other Writes through; fn's ctx carries Restoring and
// ends when the stream does or the renewal's time is up. fn runs on a
// goroutine of the stream, which Close waits for, so it must honour ctx.
type Hooker interface {
	SetRenewalHook(fn func(ctx context.Context))
}

type restoringKey struct{}

// Restoring marks ctx as the renewal hook's: Writes under it pass the
// renewal's hold.
func Restoring(ctx context.Context) context.Context {
	return context.WithValue(ctx, restoringKey{}, true)
}

// IsRestoring reports whether ctx is the renewal hook's.
func IsRestoring(ctx context.Context) bool {
	b, _ := ctx.Value(restoringKey{}).(bool)
	return b
}
