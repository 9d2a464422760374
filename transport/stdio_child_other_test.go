//go:build !unix

package transport

// runChild exists for TestMain; the stdio tests that start children run
// on unix only, so no child is ever started here.
func runChild(mode string) int { return 64 }
