package config

// Trust for project files. A config file found in the project directory
// came with the repository, not from the user: its commands would run
// and its ${VAR} references would carry the user's secrets to whatever
// it names. So Load reads such a file's servers only once the user has
// approved that very content; the approvals live in the user's state
// directory, one SHA-256 per absolute path, and an edit needs a new one.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The scopes of a config file (Location.Scope, Source.Scope).
const (
	// ScopeProject: found in the project directory (LoadOptions.Dir);
	// untrusted until approved.
	ScopeProject = "project"
	// ScopeUser: one of the user's own files.
	ScopeUser = "user"
	// ScopeExplicit: named by the caller (LoadOptions.Files); the naming
	// is the user's trust.
	ScopeExplicit = "explicit"
)

// trustFileName is the approvals' file in the state directory.
const trustFileName = "trusted-configs.json"

// trustRecord is the approvals' file: absolute path -> hex SHA-256 of the
// approved content.
type trustRecord struct {
	Files map[string]string `json:"files"`
}

// ContentHash is the hex SHA-256 of a config file's content, as
// approvals record it.
func ContentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// stateDir is where approvals live: LoadOptions.StateDir, else
// $XDG_STATE_HOME/mcpwire, else <HomeDir>/.local/state/mcpwire; "" when
// none can be found (then nothing is trusted).
func (o LoadOptions) stateDir() string {
	if o.StateDir != "" {
		return o.StateDir
	}
	env := o.Env
	if env == nil {
		env = os.LookupEnv
	}
	if d, ok := env("XDG_STATE_HOME"); ok && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpwire")
	}
	home := o.HomeDir
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "mcpwire")
}

// TrustFile returns the file that holds the approvals for opts (see
// LoadOptions.StateDir), or "" when no state directory can be found.
func TrustFile(opts LoadOptions) string {
	dir := opts.stateDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, trustFileName)
}

// readTrust reads the approvals; a missing file holds none.
func readTrust(file string) (trustRecord, error) {
	rec := trustRecord{Files: map[string]string{}}
	if file == "" {
		return rec, nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("config: approvals: %w", err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return trustRecord{Files: map[string]string{}}, fmt.Errorf("config: approvals in %s: not valid JSON (delete the file to start again)", file)
	}
	if rec.Files == nil {
		rec.Files = map[string]string{}
	}
	return rec, nil
}

// Trusted reports whether the user approved file (made absolute) with
// exactly the content whose ContentHash is sum. An approvals file that
// cannot be read trusts nothing, and the error says why.
func Trusted(file, sum string, opts LoadOptions) (bool, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return false, fmt.Errorf("config: %w", err)
	}
	rec, err := readTrust(TrustFile(opts))
	if err != nil {
		return false, err
	}
	return rec.Files[abs] == sum, nil
}

// Approve records the user's approval of file (made absolute) with the
// content whose ContentHash is sum; an earlier approval of the same path
// is replaced. Pass the hash of the content the user was shown, not of
// the file read again, so that an edit in between stays unapproved.
//
// The file is written with mode 0600 in a directory of mode 0700,
// through a temporary file and a rename, so a reader never sees half of
// it. Two approvals at the same moment may lose one of them.
func Approve(file, sum string, opts LoadOptions) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	store := TrustFile(opts)
	if store == "" {
		return errors.New("config: approvals: no state directory (set XDG_STATE_HOME or HOME)")
	}
	rec, err := readTrust(store)
	if err != nil {
		return err
	}
	rec.Files[abs] = sum
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("config: approvals: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(store), 0o700); err != nil {
		return fmt.Errorf("config: approvals: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(store), trustFileName+".*")
	if err != nil {
		return fmt.Errorf("config: approvals: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("config: approvals: %w", err)
	}
	if err := os.Rename(tmp.Name(), store); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("config: approvals: %w", err)
	}
	return nil
}
