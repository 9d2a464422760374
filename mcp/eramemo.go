package mcp

import "sync"

// eraMemo remembers, for each server this process connected to, the
// protocol version the negotiation settled on, so that the next connect
// (a reconnect of the manager, a second command) skips the probe: a
// legacy server is met with initialize at once, a modern one with
// server/discover under the version it spoke. A remembered era that turns
// out wrong (the server was upgraded or downgraded) is negotiated afresh.
// Keys are transport.Identifier keys: hashes, never a command line or URL.
type eraMemo struct {
	mu sync.Mutex
	m  map[string]string
}

// maxRememberedEras bounds the memo of a long-running process that meets
// ever new servers; when full, an arbitrary entry makes room.
const maxRememberedEras = 1024

var eras eraMemo

func (e *eraMemo) get(key string) (string, bool) {
	if key == "" {
		return "", false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.m[key]
	return v, ok
}

func (e *eraMemo) put(key, version string) {
	if key == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = make(map[string]string)
	}
	if _, ok := e.m[key]; !ok && len(e.m) >= maxRememberedEras {
		for k := range e.m {
			delete(e.m, k)
			break
		}
	}
	e.m[key] = version
}

func (e *eraMemo) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}
