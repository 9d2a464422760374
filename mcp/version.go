package mcp

import "slices"

// Version is mcpwire's own version, sent as clientInfo.version by default.
const Version = "0.1.0-dev"

// LatestProtocolVersion is the protocol revision the client offers in
// initialize.
const LatestProtocolVersion = "2025-11-25"

// SupportedProtocolVersions lists every revision the client accepts in the
// server's initialize answer, newest first.
var SupportedProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// IsSupportedProtocolVersion reports whether v is in SupportedProtocolVersions.
func IsSupportedProtocolVersion(v string) bool {
	return slices.Contains(SupportedProtocolVersions, v)
}

// versionAtLeast reports whether protocol revision v is min or newer.
// Revisions are dates in ISO form, so they order as strings.
func versionAtLeast(v, min string) bool { return v >= min }
