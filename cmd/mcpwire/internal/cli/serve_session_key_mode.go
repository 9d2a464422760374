package cli

import (
	"fmt"
	"os"
	"runtime"
)

// sessionKeyFileWarning is what to say when the session key file can be
// read by others than its owner: whoever reads the key can open, and
// forge, every session id sealed under it, as any host. "" when the file
// is private, or on Windows, whose files have no such bits.
func sessionKeyFileWarning(file string) string {
	if runtime.GOOS == "windows" {
		return ""
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return ""
	}
	return fmt.Sprintf("warning: --session-key-file %s can be read by others (mode %04o): whoever reads it can forge session ids; chmod 600 it", file, fi.Mode().Perm())
}
