package mcp

import "slices"

// Version is mcpwire's own version, sent as clientInfo.version by default.
const Version = "0.1.0-dev"

// LatestProtocolVersion is the protocol revision the client offers in
// initialize.
const LatestProtocolVersion = "2025-11-25"

// supportedVersions lists every revision the client accepts in the
// server's initialize answer, newest first.
var supportedVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// ProtocolVersions returns every revision the client accepts in the
// server's initialize answer, newest first. The slice is the caller's.
func ProtocolVersions() []string { return slices.Clone(supportedVersions) }

// IsSupportedProtocolVersion reports whether v is in ProtocolVersions.
func IsSupportedProtocolVersion(v string) bool {
	return slices.Contains(supportedVersions, v)
}

// versionAtLeast reports whether protocol revision v is min or newer.
// Revisions are dates in ISO form, so they order as strings.
func versionAtLeast(v, min string) bool { return v >= min }
