package mcp

import "slices"

// LibraryVersion is the version of this library (mcpwire), not of the
// protocol: the clientInfo.version sent when ClientOptions.ClientInfo is
// left empty.
const LibraryVersion = "0.1.0-dev"

// LatestLegacyProtocolVersion is the newest revision of the legacy era
// (the one with initialize): what the client offers in initialize. It is
// not the newest revision the client speaks: that is
// ModernProtocolVersion (2026-07-28), which a connection tries first
// unless ClientOptions.ProtocolVersion pins another.
const LatestLegacyProtocolVersion = "2025-11-25"

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
