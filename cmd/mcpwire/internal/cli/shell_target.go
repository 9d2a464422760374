package cli

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcpwire/mcpwire/mcp"
)

// shellTarget is the one server of a shell on a TARGET. When its
// connection ends (the child exited, the server went away), the shell
// says so above the prompt at once and forgets the server's lists, and
// the next command connects again as the shell did at its start: the
// configured servers' shell gets the same from the manager.
type shellTarget struct {
	sh *shell
	t  *Target

	mu     sync.Mutex // held across a reconnect, so there is one at a time
	client *mcp.Client
	closed bool // the shell ended: no notice, no reconnect

	watchers sync.WaitGroup // the watch of each client, waited for by close
}

// start takes c, the connection the shell opened with.
func (st *shellTarget) start(c *mcp.Client) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.client = c
	st.watchers.Go(func() { st.watch(c) })
}

// watch waits for c's end and, unless the shell closed it or already
// moved on, says why it ended. It returns when c is closed, which close
// does at the latest.
func (st *shellTarget) watch(c *mcp.Client) {
	<-c.Done()
	st.mu.Lock()
	current := !st.closed && st.client == c
	st.mu.Unlock()
	if !current {
		return
	}
	st.sh.forgetAll()
	reason := "closed"
	if err := c.Err(); err != nil {
		reason = oneLine(st.sh.io.Redact(err.Error()))
	}
	st.sh.println(Sanitize(fmt.Sprintf("mcpwire: the connection to %s ended: %s; the next command connects again", st.t.Desc, reason)))
}

// conn is the live client, connected again first if the last one ended.
func (st *shellTarget) conn(ctx context.Context) (Conn, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	select {
	case <-st.client.Done():
	default:
		return Conn{Client: st.client, Target: st.t}, nil
	}
	if st.closed {
		return Conn{}, fmt.Errorf("the shell is closing")
	}
	c, err := Connect(ctx, st.sh.io, st.t)
	if err != nil {
		return Conn{}, err
	}
	st.client.Close()
	st.client = c
	st.watchers.Go(func() { st.watch(c) })
	st.sh.println(Sanitize("mcpwire: connected to " + st.t.Desc + " again"))
	return Conn{Client: c, Target: st.t}, nil
}

// close closes the live client for good and waits for the watches,
// which then return quietly.
func (st *shellTarget) close() {
	st.mu.Lock()
	st.closed = true
	if st.client != nil {
		st.client.Close()
	}
	st.mu.Unlock()
	st.watchers.Wait()
}
