package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

func randomKeyHex(t *testing.T) string {
	t.Helper()
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(k)
}

func TestSessionKeysFromFileAndEnvironment(t *testing.T) {
	first, second := randomKeyHex(t), randomKeyHex(t)
	file := filepath.Join(t.TempDir(), "keys")
	write(t, file, "# new key first, then the one being retired\n"+first+"\n\n  "+second+"  \n")
	t.Setenv(sessionKeyEnv, randomKeyHex(t)) // the file wins
	keys, err := sessionKeys(file)
	if err != nil || len(keys) != 2 || hex.EncodeToString(keys[0]) != first || hex.EncodeToString(keys[1]) != second {
		t.Fatalf("keys from the file: %d, %v", len(keys), err)
	}

	t.Setenv(sessionKeyEnv, second+", "+first)
	if keys, err = sessionKeys(""); err != nil || len(keys) != 2 || hex.EncodeToString(keys[0]) != second {
		t.Fatalf("keys from %s: %d, %v", sessionKeyEnv, len(keys), err)
	}
	t.Setenv(sessionKeyEnv, "")
	if keys, err = sessionKeys(""); err != nil || len(keys) != 0 {
		t.Fatalf("no key: %v, %v", keys, err)
	}
}

func TestSessionKeysRefuseBadKeysWithoutShowingThem(t *testing.T) {
	good := randomKeyHex(t)
	dir := t.TempDir()
	for name, tc := range map[string]struct{ file, env, want string }{
		"not hex":      {file: good + "\n" + strings.Repeat("zz", 32) + "\n", want: "key 2 is not hex"},
		"short":        {file: good[:40] + "\n", want: "key 1 is 20 bytes"},
		"empty file":   {file: "# nothing yet\n", want: "no key in the file"},
		"env too long": {env: good + "00", want: sessionKeyEnv + ": key 1 is 33 bytes"},
	} {
		t.Run(name, func(t *testing.T) {
			path := ""
			if tc.env == "" {
				path = filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
				write(t, path, tc.file)
			}
			t.Setenv(sessionKeyEnv, tc.env)
			_, err := sessionKeys(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), good[:16]) || strings.Contains(err.Error(), "zzzz") {
				t.Errorf("the error shows key material: %v", err)
			}
		})
	}
	if _, err := sessionKeys(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "--session-key-file") {
		t.Errorf("missing file: %v", err)
	}
}

func TestServeSessionKeyFlag(t *testing.T) {
	o := &gatewayOptions{}
	fs := NewFlagSet("serve")
	o.Flags(fs)
	if err := fs.Parse([]string{"--stdio", "--session-key-file", "k"}); err != nil {
		t.Fatal(err)
	}
	if _, err := o.check(); err == nil || !strings.Contains(err.Error(), "--session-key-file is for --listen") {
		t.Errorf("--stdio with --session-key-file: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string // "" when the flags are accepted
	}{
		{[]string{"--stdio", "--session-max-age", "1h"}, "--session-max-age is for --listen"},
		{[]string{"--listen", ":0", "--session-max-age", "-1s"}, "must not be negative"},
		{[]string{"--listen", ":0", "--session-max-age", "0"}, ""},
		{[]string{"--listen", ":0", "--session-max-age", "90m"}, ""},
	} {
		o, err := checkServeFlags(t, tc.args, tc.want)
		if err == nil && o.SessionAge.String() != map[string]string{"0": "0s", "90m": "1h30m0s"}[tc.args[3]] {
			t.Errorf("%v: --session-max-age parsed as %s", tc.args, o.SessionAge)
		}
	}
	unset := &gatewayOptions{}
	unset.Flags(NewFlagSet("serve"))
	if unset.SessionAge != defaultSessionMaxAge {
		t.Errorf("--session-max-age defaults to %s, want %s", unset.SessionAge, defaultSessionMaxAge)
	}
	// A bad key fails before any server starts: the target here does
	// not exist, and is never tried.
	bad := writeKeyFile(t, "abcd")
	r := run(t, "serve", "--listen", "127.0.0.1:0", "--session-key-file", bad, "--", filepath.Join(t.TempDir(), "no-such-server"))
	r.wantCode(t, 2)
	if !strings.Contains(r.err, "--session-key-file "+bad+": key 1 is 2 bytes") || strings.Contains(r.err, "abcd") {
		t.Errorf("stderr:\n%s", r.err)
	}
}

func TestServeSaysSessionsAreLocalWithoutKey(t *testing.T) {
	t.Setenv(sessionKeyEnv, "")
	r := startReplica(t)
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(r.stderr.String(), "no session key"); n != 1 {
		t.Errorf("%d lines about the missing key:\n%s", n, r.stderr)
	}
	with := startReplica(t, "--session-key-file", writeKeyFile(t, randomKeyHex(t)))
	if err := with.stop(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(with.stderr.String(), "no session key") {
		t.Errorf("with a key, serve still says sessions are local:\n%s", with.stderr)
	}
}

func writeKeyFile(t *testing.T, keys ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.key")
	write(t, path, strings.Join(keys, "\n")+"\n")
	return path
}

// TestServeRefusesForeignSessionID: an id sealed under another key gets
// 404, so the host starts over, and the refusal is logged without the id.
func TestServeRefusesForeignSessionID(t *testing.T) {
	other := startReplica(t, "--session-key-file", writeKeyFile(t, randomKeyHex(t)))
	r := startReplica(t, "--session-key-file", writeKeyFile(t, randomKeyHex(t)))
	id := sessionIDOf(t, "http://"+other.addr+"/mcp")

	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://"+r.addr+"/mcp",
		bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a foreign session id: status %d, want 404", resp.StatusCode)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	log := r.stderr.String()
	if !strings.Contains(log, "refused a session id") || !strings.Contains(log, "authentication failed") {
		t.Errorf("no refusal logged:\n%s", log)
	}
	if strings.Contains(log, id[3:20]) {
		t.Errorf("the log shows the refused id:\n%s", log)
	}
}

// sessionIDOf starts a 2025-11-25 session with a bare initialize and
// returns its Mcp-Session-Id.
func sessionIDOf(t *testing.T, url string) string {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if !strings.HasPrefix(id, "v1.") || len(id) < 40 {
		t.Fatalf("initialize gave session id %q (status %d)", id, resp.StatusCode)
	}
	return id
}
