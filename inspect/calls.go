package inspect

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// maxCalls bounds the history kept for the session.
const maxCalls = 1000

// callRecord is one tool call made from the page, as the page sees it.
type callRecord struct {
	ID        int64           `json:"id"`
	Rev       int64           `json:"rev"` // grows with every change
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      json.RawMessage `json:"meta,omitempty"`
	Command   string          `json:"command"` // the same call as an mcpwire command
	Started   time.Time       `json:"started"`
	// State is running, done (a result, isError or not), failed (no
	// result: an error) or cancelled.
	State      string          `json:"state"`
	DurationMS float64         `json:"durationMs,omitempty"`
	Progress   *progress       `json:"progress,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"` // secrets masked (redactJSON)
	Error      string          `json:"error,omitempty"`
	// SchemaError says how a result failed its tool's outputSchema; the
	// result still shows.
	SchemaError string `json:"schemaError,omitempty"`
	// OpenFirst are the pages a failed call's server asks the person to
	// open before the call is made again (-32042).
	OpenFirst []pageToOpen `json:"openFirst,omitempty"`

	cancel context.CancelFunc
}

// progress is the last progress notification of a call.
type progress struct {
	Progress float64  `json:"progress"`
	Total    *float64 `json:"total,omitempty"`
	Message  string   `json:"message,omitempty"`
}

// calls keeps the calls of the session and tells the pages of changes.
type calls struct {
	mu   sync.Mutex
	list []*callRecord
	next int64
	rev  int64
	hub  *hub
}

func newCalls(h *hub) *calls { return &calls{hub: h} }

// add registers a running call and publishes it.
func (c *calls) add(r *callRecord) {
	c.mu.Lock()
	c.next++
	r.ID = c.next
	r.State = "running"
	c.list = append(c.list, r)
	if len(c.list) > maxCalls {
		c.list[0] = nil
		c.list = c.list[1:]
	}
	c.mu.Unlock()
	c.update(r, func(*callRecord) {})
}

// update changes r under the lock and publishes its new state.
func (c *calls) update(r *callRecord, change func(*callRecord)) {
	c.mu.Lock()
	change(r)
	c.rev++
	r.Rev = c.rev
	b, err := json.Marshal(r)
	c.mu.Unlock()
	if err == nil {
		c.hub.publish(event{kind: "call", call: b})
	}
}

// get returns call id, or nil.
func (c *calls) get(id int64) *callRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.list {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// snapshot returns every call's JSON, oldest first.
func (c *calls) snapshot() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]byte, 0, len(c.list))
	for _, r := range c.list {
		if b, err := json.Marshal(r); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// schemaFailures are server's calls whose result failed its outputSchema.
func (c *calls) schemaFailures(server string) []*callRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*callRecord
	for _, r := range c.list {
		if r.Server == server && r.SchemaError != "" {
			out = append(out, &callRecord{ID: r.ID, Tool: r.Tool, SchemaError: r.SchemaError})
		}
	}
	return out
}
