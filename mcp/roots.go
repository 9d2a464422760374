package mcp

import (
	"fmt"
	"strings"
)

// Root is a directory or file the client lets the server work in. URI must
// be a file:// URI.
type Root struct {
	URI  string         `json:"uri"`
	Name string         `json:"name,omitempty"`
	Meta map[string]any `json:"_meta,omitempty"`
}

// listRootsResult is the client's answer to roots/list.
type listRootsResult struct {
	Roots []Root `json:"roots"`
}

// checkRoots enforces the spec's rule that root URIs are file:// URIs, so
// a mistake is reported to the caller instead of confusing the server.
func checkRoots(roots []Root) error {
	for i, r := range roots {
		if !strings.HasPrefix(r.URI, "file://") {
			return fmt.Errorf("mcp: root %d (%q): URI must start with file://", i, r.URI)
		}
	}
	return nil
}
