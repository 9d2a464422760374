//go:build !unix

package cli

import "os"

// stopEditor ends the editor: without Unix signals there is no polite
// request to quit.
func stopEditor(p *os.Process) error { return p.Kill() }
