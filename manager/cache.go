package manager

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
)

// cacheFormat marks the layout of a cache file; another value is a miss.
const cacheFormat = "mcpwire-tools/1"

// maxCacheFile bounds what is read of one cache file; a larger one is
// treated as corrupt rather than read into memory.
const maxCacheFile = 32 << 20

// toolCache keeps each server's last tool list on disk, so that a slow
// server's tools are known at startup before it answers. It stores tool
// lists only (names, descriptions, schemas): never a config value, env
// entry or header.
//
// Files are written atomically (a temp file renamed over the old one), so
// concurrent managers for the same server each leave a whole file, and a
// reader never sees half of one. Safe for concurrent use: it holds no
// state besides its settings.
type toolCache struct {
	dir string
	ttl time.Duration
}

// cacheFile is the JSON layout of one cache file.
type cacheFile struct {
	Format  string     `json:"format"`
	Server  string     `json:"server"`
	SavedAt time.Time  `json:"savedAt"`
	Tools   []mcp.Tool `json:"tools"`
}

// cacheKey is the key of a server's tool cache file: config's
// Server.CacheKey (the name and the unexpanded definition) mixed with the
// file and section the definition came from. config's key alone is shared
// by two projects whose .mcp.json hold the same text even when
// ${workspaceFolder} makes them run different servers; the file tells
// them apart. A user-level definition keeps one key across projects.
func cacheKey(s *config.Server) string {
	file := s.Source.File
	if file != "" && !filepath.IsAbs(file) {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", s.CacheKey(), file, s.Source.Section)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *toolCache) path(key string) string {
	return filepath.Join(c.dir, key+".json")
}

// load returns the cached tools of a server. ok is false on a miss: no
// file, an expired one, or a corrupt one; warn is set only for the last
// (and for a file that cannot be read), naming the file.
func (c *toolCache) load(key, server string, now time.Time) (tools []mcp.Tool, savedAt time.Time, ok bool, warn error) {
	p := c.path(key)
	f, err := os.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, time.Time{}, false, nil
		}
		return nil, time.Time{}, false, fmt.Errorf("tool cache: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCacheFile+1))
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("tool cache %s: %w", p, err)
	}
	if len(data) > maxCacheFile {
		return nil, time.Time{}, false, fmt.Errorf("tool cache %s: larger than %d bytes; ignored", p, maxCacheFile)
	}
	cf, err := decodeCache(data, server)
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("tool cache %s: %w; ignored", p, err)
	}
	if now.Sub(cf.SavedAt) > c.ttl {
		return nil, time.Time{}, false, nil
	}
	return cf.Tools, cf.SavedAt, true, nil
}

// decodeCache parses a cache file and checks it belongs to server.
func decodeCache(data []byte, server string) (*cacheFile, error) {
	var cf cacheFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&cf); err != nil {
		return nil, fmt.Errorf("not a valid cache file: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a valid cache file: data after the JSON object")
	}
	if cf.Format != cacheFormat {
		return nil, fmt.Errorf("unknown format %q (want %q)", cf.Format, cacheFormat)
	}
	if cf.Server != server {
		return nil, fmt.Errorf("written for server %q, not %q", cf.Server, server)
	}
	if cf.SavedAt.IsZero() {
		return nil, errors.New("no savedAt time")
	}
	for i, t := range cf.Tools {
		if t.Name == "" {
			return nil, fmt.Errorf("tools[%d] has no name", i)
		}
	}
	return &cf, nil
}

// save writes the tools of a server, readable by the owner only.
func (c *toolCache) save(key, server string, tools []mcp.Tool, now time.Time) error {
	if tools == nil {
		tools = []mcp.Tool{}
	}
	data, err := json.Marshal(&cacheFile{Format: cacheFormat, Server: server, SavedAt: now.UTC(), Tools: tools})
	if err != nil {
		return fmt.Errorf("tool cache: encoding: %w", err)
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("tool cache: %w", err)
	}
	tmp, err := os.CreateTemp(c.dir, "."+key+".*.tmp") // created 0600
	if err != nil {
		return fmt.Errorf("tool cache: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("tool cache: writing: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.path(key)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("tool cache: %w", err)
	}
	return nil
}

// remove deletes a server's cache file, if any.
func (c *toolCache) remove(key string) error {
	if err := os.Remove(c.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("tool cache: %w", err)
	}
	return nil
}
