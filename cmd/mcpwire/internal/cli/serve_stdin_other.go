//go:build !unix

package cli

import "io"

// pollableStdin is stdin as is where pipes cannot join the poller.
func pollableStdin(in io.Reader) io.Reader { return in }
