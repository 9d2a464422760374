package auth

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestFileStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "auth")
	s := &FileStore{Dir: dir}
	ctx := t.Context()
	if r, err := s.Load(ctx, "https://h/mcp"); r != nil || err != nil {
		t.Fatalf("Load from an empty store = %v, %v", r, err)
	}
	if rs, err := s.List(ctx); len(rs) != 0 || err != nil {
		t.Fatalf("List of a missing dir = %v, %v", rs, err)
	}
	rec := &Record{ServerURL: "https://h/mcp", Issuer: "https://as", ClientID: "c",
		Token: &Token{AccessToken: "at", RefreshToken: "rt", Expiry: time.Unix(1e9, 0).UTC(), Scopes: []string{"a"}}}
	if err := s.Save(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, &Record{ServerURL: "https://a/mcp"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "https://h/mcp")
	if err != nil || got == nil || got.Token.AccessToken != "at" || !got.Token.Expiry.Equal(rec.Token.Expiry) || got.Issuer != "https://as" {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 2 || list[0].ServerURL != "https://a/mcp" {
		t.Fatalf("List = %v, %v", list, err)
	}
	if runtime.GOOS != "windows" {
		st, _ := os.Stat(dir)
		if st.Mode().Perm() != 0o700 {
			t.Errorf("dir mode = %v, want 0700", st.Mode().Perm())
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			info, _ := e.Info()
			if info.Mode().Perm() != 0o600 {
				t.Errorf("%s mode = %v, want 0600", e.Name(), info.Mode().Perm())
			}
			if strings.HasPrefix(e.Name(), ".tmp") {
				t.Errorf("a temporary file was left behind: %s", e.Name())
			}
		}
	}
	if err := s.Delete(ctx, "https://h/mcp"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "https://h/mcp"); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	if r, _ := s.Load(ctx, "https://h/mcp"); r != nil {
		t.Errorf("Load after Delete = %v", r)
	}
}

func TestFileStoreTightensALooseDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	if err := (&FileStore{Dir: dir}).Save(t.Context(), &Record{ServerURL: "https://h"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %v, want 0700", st.Mode().Perm())
	}
}

func TestFileStoreDamagedFile(t *testing.T) {
	dir := t.TempDir()
	s := &FileStore{Dir: dir}
	os.WriteFile(s.file("https://h/mcp"), []byte(`{"server_url": "https://h/mcp", "token": {"access_token": "SECRET-TOKEN"`), 0o600)
	_, err := s.Load(t.Context(), "https://h/mcp")
	if err == nil || !strings.Contains(err.Error(), "damaged") || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("err = %v", err)
	}
	// An Authorizer treats a damaged store as empty and signs in afresh.
	w := newWorld(t)
	s2 := &FileStore{Dir: t.TempDir()}
	os.WriteFile(s2.file(mustCanonical(t, w.serverURL())), []byte("garbage"), 0o600)
	mustCall(t, w, newAuth(t, w, &Options{Store: s2}), "ping")
	if r, err := s2.Load(t.Context(), mustCanonical(t, w.serverURL())); err != nil || r == nil || r.Token == nil {
		t.Errorf("the store was not repaired: %v, %v", r, err)
	}
}

func mustCanonical(t *testing.T, raw string) string {
	t.Helper()
	c, err := CanonicalResource(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTokensPersistAcrossAuthorizers(t *testing.T) {
	w := newWorld(t)
	store := &FileStore{Dir: t.TempDir()}
	mustCall(t, w, newAuth(t, w, &Options{Store: store}), "ping")
	ua := &approver{}
	mustCall(t, w, newAuth(t, w, &Options{Store: store, UserAgent: ua}), "ping")
	if ua.count() != 0 || w.authorizeCount() != 1 {
		t.Errorf("the second authorizer signed in again (%d, %d)", ua.count(), w.authorizeCount())
	}
}

func TestChangedAuthorizationServerDropsTokens(t *testing.T) {
	w := newWorld(t)
	store := &MemoryStore{}
	key := mustCanonical(t, w.serverURL())
	store.Save(t.Context(), &Record{ServerURL: key, Issuer: "https://old-as.example", TokenEndpoint: "https://old-as.example/token",
		ClientID: "c", Token: &Token{AccessToken: "old-token"}})
	mustCall(t, w, newAuth(t, w, &Options{Store: store}), "ping")
	rec, _ := store.Load(t.Context(), key)
	if rec.Issuer != w.issuer() || rec.Token == nil || rec.Token.AccessToken == "old-token" {
		t.Errorf("record = %v", rec)
	}
}

func TestCanonicalResource(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://Example.COM:443/mcp/": "https://example.com/mcp",
		"http://h:8080/mcp?key=v#frag": "http://h:8080/mcp",
		"https://h/":                   "https://h",
		"https://user:pw@h/x":          "https://h/x",
		"http://[::1]:3000/mcp":        "http://[::1]:3000/mcp",
		"http://[::1]/mcp":             "http://[::1]/mcp",
	} {
		if got, err := CanonicalResource(in); err != nil || got != want {
			t.Errorf("CanonicalResource(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
}
