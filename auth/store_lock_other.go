//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package auth

import (
	"os"
	"sync"
)

// Without flock, the lock is held within this process only: a lock file
// path is locked while its name is in lockedFiles.
var (
	lockedMu    sync.Mutex
	lockedFiles = map[string]bool{}
)

func tryLockFile(f *os.File) (bool, error) {
	lockedMu.Lock()
	defer lockedMu.Unlock()
	if lockedFiles[f.Name()] {
		return false, nil
	}
	lockedFiles[f.Name()] = true
	return true, nil
}

func unlockFile(f *os.File) {
	lockedMu.Lock()
	delete(lockedFiles, f.Name())
	lockedMu.Unlock()
}
