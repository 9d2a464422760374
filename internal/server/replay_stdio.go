package server

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// ServeStdio serves the replay on os.Stdin and os.Stdout (JSON lines), as
// a server that runs as a child process, so that a recording of any
// client (a command line tool as well as a test) can be replayed to it
// unchanged: start this process where the real server was started. It
// returns when stdin ends or ctx ends, having closed stdout.
func (r *Replay) ServeStdio(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return errors.New("mcptest: the replay is closed")
	}
	st := stdioStream()
	r.streams[st] = struct{}{}
	r.wg.Add(1)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.streams, st)
		r.mu.Unlock()
		r.wg.Done()
	}()
	stop := context.AfterFunc(ctx, func() { _ = st.Close() })
	defer stop()
	r.serve(st)
	_ = st.Close()
	return ctx.Err()
}

// OpenReplay reads the recording in the file at path and builds a Replay
// from it; errors name the file and the bad line.
func OpenReplay(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := NewReplay(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
