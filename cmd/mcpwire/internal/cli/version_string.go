package cli

import (
	"runtime/debug"

	"github.com/mcpwire/mcpwire/mcp"
)

// version is set at link time for release builds:
//
//	go build -ldflags "-X github.com/mcpwire/mcpwire/cmd/mcpwire/internal/cli.version=v1.2.3"
var version = ""

// Version is mcpwire's version: the link-time version if set, else the
// module version from the build info (a tag for "go install ...@v1.2.3"),
// else the library's version (mcp.LibraryVersion) with the VCS revision when known.
func Version() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return mcp.LibraryVersion
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := mcp.LibraryVersion
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
	}
	return v
}
