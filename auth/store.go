package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Record is what an Authorizer keeps about one server between runs: the
// tokens it got and the client registration it made. It holds secrets in
// clear (a Store needs them); String and GoString print none.
type Record struct {
	// ServerURL is the server's canonical URL (CanonicalResource), the key.
	ServerURL string `json:"server_url"`
	// Issuer is the authorization server the tokens come from. They are
	// never sent once the server names another one.
	Issuer        string `json:"issuer,omitempty"`
	TokenEndpoint string `json:"token_endpoint,omitempty"`
	// Resource is the resource parameter the tokens were issued for.
	Resource string `json:"resource,omitempty"`
	// ClientID is the client the tokens were issued to, and AuthMethod how
	// it authenticates at the token endpoint (for refreshing).
	ClientID   string `json:"client_id,omitempty"`
	AuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// Registration is the client this program registered dynamically, if
	// it did. Configured credentials are never stored.
	Registration *Registration `json:"registration,omitempty"`
	// SecretIssuer is the issuer the configured client secret was first
	// sent to; it is sent to no other (see Options.ClientSecretIssuer).
	// It survives a change of authorization server, which drops the rest,
	// and a Logout, which drops the rest too.
	SecretIssuer string `json:"client_secret_issuer,omitempty"`

	Token   *Token    `json:"token,omitempty"`
	Updated time.Time `json:"updated,omitzero"`
}

// Registration is a dynamically registered client (RFC 7591).
type Registration struct {
	Issuer       string `json:"issuer"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// ClientSecretExpiresAt is when the registration lapses (Unix
	// seconds; 0: never); the client then registers again.
	ClientSecretExpiresAt int64  `json:"client_secret_expires_at,omitempty"`
	AuthMethod            string `json:"token_endpoint_auth_method,omitempty"`
	RedirectURI           string `json:"redirect_uri,omitempty"`
}

// String describes the registration without its secret.
func (r Registration) String() string {
	s := fmt.Sprintf("client %s at %s", clip(r.ClientID, 80), r.Issuer)
	if r.ClientSecret != "" {
		s += " with secret [redacted]"
	}
	return s
}

// GoString keeps %#v from printing the secret.
func (r Registration) GoString() string { return "auth.Registration{" + r.String() + "}" }

// String summarises the record without secrets.
func (r Record) String() string {
	var b strings.Builder
	b.WriteString(r.ServerURL)
	if r.Issuer != "" {
		fmt.Fprintf(&b, " (authorization server %s)", r.Issuer)
	}
	if r.ClientID != "" {
		fmt.Fprintf(&b, ", client %s", clip(r.ClientID, 80))
	}
	if r.Registration != nil {
		b.WriteString(", registered")
	}
	fmt.Fprintf(&b, ", %s", r.Token)
	return b.String()
}

// GoString keeps %#v from printing secrets.
func (r Record) GoString() string { return "auth.Record{" + r.String() + "}" }

func (r *Record) clone() *Record {
	if r == nil {
		return nil
	}
	c := *r
	if r.Registration != nil {
		reg := *r.Registration
		c.Registration = &reg
	}
	if r.Token != nil {
		t := *r.Token
		t.Scopes = slices.Clone(r.Token.Scopes)
		c.Token = &t
	}
	return &c
}

// Store keeps Records, one per server URL. Implementations must be safe
// for concurrent use.
type Store interface {
	// Load returns the record for serverURL, or nil and no error when
	// there is none.
	Load(ctx context.Context, serverURL string) (*Record, error)
	// Save stores r under r.ServerURL, replacing what was there.
	Save(ctx context.Context, r *Record) error
	// Delete removes the record for serverURL; a missing one is no error.
	Delete(ctx context.Context, serverURL string) error
	// List returns every record, ordered by server URL.
	List(ctx context.Context) ([]*Record, error)
}

// MemoryStore is a Store that forgets everything when the program ends.
// The zero value is ready to use.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string]*Record
}

func (s *MemoryStore) Load(ctx context.Context, serverURL string) (*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[serverURL].clone(), nil
}

func (s *MemoryStore) Save(ctx context.Context, r *Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*Record{}
	}
	s.m[r.ServerURL] = r.clone()
	return nil
}

func (s *MemoryStore) Delete(ctx context.Context, serverURL string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, serverURL)
	return nil
}

func (s *MemoryStore) List(ctx context.Context) ([]*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Record
	for _, r := range s.m {
		out = append(out, r.clone())
	}
	slices.SortFunc(out, func(a, b *Record) int { return strings.Compare(a.ServerURL, b.ServerURL) })
	return out, nil
}

// FileStore keeps each server's Record in its own JSON file in Dir, named
// by a hash of the server URL. The directory is created 0700 and the files
// 0600; a file is replaced atomically (written aside, then renamed), so a
// crash or a concurrent reader never sees half a file.
type FileStore struct {
	Dir string
}

// defaultStoreDir is where mcpwire keeps tokens: the user's config
// directory (os.UserConfigDir), then mcpwire/auth.
func defaultStoreDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("auth: no user config directory for the token store: %w", err)
	}
	return filepath.Join(dir, "mcpwire", "auth"), nil
}

// DefaultStore returns a FileStore in the user's config directory
// (os.UserConfigDir), under mcpwire/auth; its Dir says where.
func DefaultStore() (*FileStore, error) {
	dir, err := defaultStoreDir()
	if err != nil {
		return nil, err
	}
	return &FileStore{Dir: dir}, nil
}

func (s *FileStore) file(serverURL string) string {
	sum := sha256.Sum256([]byte(serverURL))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

func (s *FileStore) Load(ctx context.Context, serverURL string) (*Record, error) {
	r, err := s.read(s.file(serverURL))
	if err != nil || r == nil {
		return nil, err
	}
	if r.ServerURL != serverURL {
		return nil, nil // a hash collision, or a file copied by hand
	}
	return r, nil
}

func (s *FileStore) read(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: reading the token store: %w", err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("auth: token store file %s is damaged (%s); delete it or run mcpwire logout", path, jsonProblem(err))
	}
	return &r, nil
}

func (s *FileStore) Save(ctx context.Context, r *Record) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("auth: creating the token store: %w", err)
	}
	// MkdirAll leaves an existing directory's mode alone; tokens must not
	// be readable by others even if someone loosened it.
	if err := os.Chmod(s.Dir, 0o700); err != nil {
		return fmt.Errorf("auth: securing the token store directory: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("auth: encoding a token record: %v", err)
	}
	tmp, err := os.CreateTemp(s.Dir, ".tmp-*.json") // created 0600
	if err != nil {
		return fmt.Errorf("auth: writing the token store: %w", err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(b)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(name)
		return fmt.Errorf("auth: writing the token store: %w", err)
	}
	if err := os.Rename(name, s.file(r.ServerURL)); err != nil {
		os.Remove(name)
		return fmt.Errorf("auth: writing the token store: %w", err)
	}
	return nil
}

func (s *FileStore) Delete(ctx context.Context, serverURL string) error {
	err := os.Remove(s.file(serverURL))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("auth: deleting from the token store: %w", err)
	}
	return nil
}

func (s *FileStore) List(ctx context.Context) ([]*Record, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: reading the token store: %w", err)
	}
	var out []*Record
	var problems []error
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		r, err := s.read(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if r != nil {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *Record) int { return strings.Compare(a.ServerURL, b.ServerURL) })
	return out, errors.Join(problems...)
}
