//go:build !unix

package transport

import (
	"errors"
	"fmt"
)

// startProcess is only implemented for unix: the stdio transport relies on
// process groups and signals for a bounded shutdown.
func startProcess(c *Command, path string, env []string) (*lineStream, error) {
	return nil, fmt.Errorf("transport: start %q: %w", c.Command, errors.ErrUnsupported)
}
