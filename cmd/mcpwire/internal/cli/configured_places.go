package cli

import (
	"os"
	"path/filepath"
)

// ownPlaces are the home and working directories, which a definition
// often hands a server ("HOME": "${userHome}", "ROOT":
// "${workspaceFolder}"). They are no secret, and every path mcpwire
// shows begins with one: masked, a config file would read "***/.mcp.json".
func ownPlaces() map[string]bool {
	places := map[string]bool{}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		places[filepath.Clean(home)] = true
	}
	if wd, err := os.Getwd(); err == nil {
		places[filepath.Clean(wd)] = true
	}
	return places
}
