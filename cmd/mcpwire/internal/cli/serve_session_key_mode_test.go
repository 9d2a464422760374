package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A session key file others can read is worth a warning: whoever reads
// the key can open, and forge, every session id sealed under it. Before,
// serve took a world-readable key file without a word.
func TestServeWarnsOfAReadableSessionKeyFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	cfg := gatewayConfig(t)
	for mode, warned := range map[os.FileMode]bool{0o644: true, 0o640: true, 0o600: false} {
		file := filepath.Join(t.TempDir(), "session.key")
		write(t, file, randomKeyHex(t)+"\n")
		if err := os.Chmod(file, mode); err != nil {
			t.Fatal(err)
		}
		// An address that cannot be bound ends serve once the key is read.
		r := run(t, "serve", "--listen", "127.0.0.1:99999", "--no-auth", "--session-key-file", file, "--config", cfg)
		if got := strings.Contains(r.err, "warning: --session-key-file"); got != warned {
			t.Errorf("mode %o: warned %v, want %v; stderr:\n%s", mode, got, warned, r.err)
		}
	}
}
