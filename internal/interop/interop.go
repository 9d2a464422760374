//go:build unix

// Package interop gives tests the third-party MCP peers that live in the
// repository's interop/ folder (npm packages pinned by its package-lock):
// the reference server and the official conformance suite. It is unix
// only: it runs them in process groups and locks files with flock.
//
// The first test that needs them installs them with `npm ci`; a file lock
// keeps the test binaries that `go test ./...` runs in parallel from
// installing at the same time. Without npm a test is skipped with a clear
// message, except under CI (CI=true), where a missing peer is a failure:
// CI must never pass by skipping the interop tests.
package interop

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Dir returns the absolute path of the interop folder with its node
// modules installed.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := interopDir()
	if err != nil {
		t.Fatalf("interop: %v", err)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		unavailable(t, "npm is not on PATH; install Node.js and npm to run the interop tests")
	}
	if _, err := exec.LookPath("node"); err != nil {
		unavailable(t, "node is not on PATH; install Node.js to run the interop tests")
	}
	if err := ensureInstalled(dir); err != nil {
		t.Fatalf("interop: %v", err)
	}
	return dir
}

// ServerEverything returns the command line that runs the reference server
// @modelcontextprotocol/server-everything in the given mode ("stdio",
// "streamableHttp" or "sse").
func ServerEverything(t testing.TB, mode string) (command string, args []string) {
	t.Helper()
	return "node", []string{entryPoint(t, "server-everything"), mode}
}

// Conformance returns the command line prefix that runs the official
// conformance suite at 0.1.16 (the scenarios of the eras up to 2025-11-25)
// on this machine's Node (with the loader shim that lets the bundle start
// on Node 20).
func Conformance(t testing.TB) (command string, args []string) {
	t.Helper()
	return suite(t, entryPoint(t, "conformance"))
}

// ConformanceNext returns the command line prefix that runs the official
// conformance suite at 0.2.0-alpha.12, the version that tests the
// 2026-07-28 revision. package.json installs it beside 0.1.16 under the
// npm alias conformance-next.
func ConformanceNext(t testing.TB) (command string, args []string) {
	t.Helper()
	return suite(t, packageEntry(t, "conformance-next"))
}

func suite(t testing.TB, entry string) (command string, args []string) {
	t.Helper()
	shim := filepath.Join(Dir(t), "node-shim", "register.mjs")
	return "node", []string{"--import", shim, entry}
}

func unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("interop: %s (CI must run the interop tests)", why)
	}
	t.Skipf("interop: skipped: %s", why)
}

// interopDir finds the repository's interop folder by walking up from the
// test's working directory to the module root.
func interopDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "interop", "package.json")); err == nil {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				return filepath.Join(d, "interop"), nil
			}
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no interop/package.json above %s", wd)
		}
	}
}

// ensureInstalled runs `npm ci` once, under an exclusive file lock, when the
// installed tree is missing or older than the lock file.
func ensureInstalled(dir string) error {
	lockPath := filepath.Join(dir, ".install.lock")
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("locking %s: %w", lockPath, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)

	if installed(dir) {
		return nil
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		tail := out.Bytes()
		if len(tail) > 4096 {
			tail = tail[len(tail)-4096:]
		}
		return fmt.Errorf("npm ci in %s failed: %v\n%s", dir, err, tail)
	}
	if !installed(dir) {
		return errors.New("npm ci succeeded but node_modules is incomplete")
	}
	return nil
}

// installed reports whether node_modules holds what package-lock.json names
// (npm writes node_modules/.package-lock.json after a successful install).
func installed(dir string) bool {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	done, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err != nil {
		return false
	}
	return !done.ModTime().Before(lock.ModTime())
}

// ServerFilesystem returns the command line that runs
// @modelcontextprotocol/server-filesystem with root as its one allowed
// directory.
func ServerFilesystem(t testing.TB, root string) (command string, args []string) {
	t.Helper()
	return "node", []string{entryPoint(t, "server-filesystem"), root}
}

// ServerMemory returns the command line that runs
// @modelcontextprotocol/server-memory. The caller must point the
// MEMORY_FILE_PATH variable at a file of its own: by default the server
// keeps its graph inside node_modules, shared by every test.
func ServerMemory(t testing.TB) (command string, args []string) {
	t.Helper()
	return "node", []string{entryPoint(t, "server-memory")}
}

// entryPoint is the installed dist/index.js of the named
// @modelcontextprotocol package.
func entryPoint(t testing.TB, pkg string) string {
	t.Helper()
	return packageEntry(t, "@modelcontextprotocol/"+pkg)
}

// packageEntry is the installed dist/index.js of the package that
// node_modules holds under pkg (a scoped name, or an alias).
func packageEntry(t testing.TB, pkg string) string {
	t.Helper()
	entry := filepath.Join(Dir(t), "node_modules", filepath.FromSlash(pkg), "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("interop: %s entry point missing after install: %v", pkg, err)
	}
	return entry
}
