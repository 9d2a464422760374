package auth

import (
	"context"
	"fmt"
	"os"
	"time"
)

// RecordLocker may be implemented by a Store whose records other processes
// share (FileStore does). The Authorizer holds the lock of a server's
// record around a token refresh and the save of its result, so that two
// processes refreshing a rotating refresh token at once do not both spend
// it: the second one finds the first one's result when it gets the lock.
type RecordLocker interface {
	// LockRecord blocks until it holds the lock of serverURL's record, or
	// ctx ends. The returned function releases it.
	LockRecord(ctx context.Context, serverURL string) (unlock func(), err error)
}

// lockContendedHook, set by tests, runs when LockRecord finds the lock
// taken and starts to wait.
var lockContendedHook func()

// LockRecord locks a lock file beside the record's file (an advisory lock
// of the operating system where it has one, held by this open file, so
// it is released if the process dies).
func (s *FileStore) LockRecord(ctx context.Context, serverURL string) (func(), error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("auth: creating the token store: %w", err)
	}
	path := s.file(serverURL) + ".lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("auth: opening the token store's lock file: %w", err)
	}
	// Poll a non-blocking lock so that ctx can end the wait; the first
	// tries are quick, as a refresh takes a round trip or two.
	delay := 5 * time.Millisecond
	for {
		ok, err := tryLockFile(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("auth: locking the token store record: %w", err)
		}
		if ok {
			return func() { unlockFile(f); f.Close() }, nil
		}
		if lockContendedHook != nil && delay == 5*time.Millisecond {
			lockContendedHook()
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 100*time.Millisecond)
	}
}
