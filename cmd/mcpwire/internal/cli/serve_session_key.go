package cli

import (
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	core "github.com/mcpwire/mcpwire/internal/server"
)

// sessionKeyEnv holds session keys when --session-key-file is not given.
const sessionKeyEnv = "MCPWIRE_SESSION_KEY"

// loadSessionKeys reads the session keys of --listen before any server
// starts, so that a bad key fails at once.
func (o *gatewayOptions) loadSessionKeys(streams *IOStreams) error {
	if o.Listen == "" {
		return nil
	}
	keys, err := sessionKeys(o.SessionKey)
	o.sessionKeys = keys
	if err == nil && o.SessionKey != "" {
		if w := sessionKeyFileWarning(o.SessionKey); w != "" {
			fmt.Fprintf(streams.ErrOut, "mcpwire: serve: %s\n", w)
		}
	}
	return err
}

// sessionKeys reads the keys that seal session ids: from --session-key-file
// (one hex key a line; blank lines and lines starting with # are skipped)
// or else from MCPWIRE_SESSION_KEY (keys separated by commas or spaces).
// The first key seals, every key opens: rotation adds a new key first,
// then, once every replica has it, drops the old one. No keys: nil.
// Errors name the source and the key's position, never its content.
func sessionKeys(file string) ([][]byte, error) {
	var source, text string
	var fields []string
	switch {
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, Usagef("--session-key-file: %v", err)
		}
		source, text = "--session-key-file "+file, string(b)
		for line := range strings.Lines(text) {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") {
				fields = append(fields, line)
			}
		}
		if len(fields) == 0 {
			return nil, Usagef("%s: no key in the file (want %d random bytes in hex, e.g. from: openssl rand -hex %d)", source, core.SessionKeySize, core.SessionKeySize)
		}
	default:
		text = os.Getenv(sessionKeyEnv)
		source = sessionKeyEnv
		fields = strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	}
	keys := make([][]byte, 0, len(fields))
	for i, f := range fields {
		k, err := hex.DecodeString(f)
		if err != nil || len(k) != core.SessionKeySize {
			what := "is not hex"
			if err == nil {
				what = fmt.Sprintf("is %d bytes", len(k))
			}
			return nil, Usagef("%s: key %d %s; want %d random bytes in hex (%d hex digits, e.g. from: openssl rand -hex %d)", source, i+1, what, core.SessionKeySize, 2*core.SessionKeySize, core.SessionKeySize)
		}
		keys = append(keys, k)
	}
	return keys, nil
}
