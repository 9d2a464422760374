package server

import "time"

// A sealed id stays valid on every replica that holds the key, so ending
// a session (DELETE, ExpireSession) can only be remembered where it
// happened: the replica keeps the id for revokeFor and refuses it, rather
// than reopening it at the client's next request. Other replicas still
// accept it; docs/serve.md says so.
const (
	revokeFor  = time.Hour
	maxRevoked = 10000 // oldest are forgotten first beyond this
)

type revocation struct {
	id    string
	until time.Time
}

// revokeLocked remembers that id was ended here. h.mu is held.
func (h *HTTPHandler) revokeLocked(id string) {
	if h.sealer == nil {
		return
	}
	now := time.Now()
	for len(h.revokedOrder) > 0 && (len(h.revokedOrder) >= maxRevoked || now.After(h.revokedOrder[0].until)) {
		delete(h.revoked, h.revokedOrder[0].id)
		h.revokedOrder = h.revokedOrder[1:]
	}
	if h.revoked == nil {
		h.revoked = map[string]time.Time{}
	}
	if _, ok := h.revoked[id]; !ok {
		h.revoked[id] = now.Add(revokeFor)
		h.revokedOrder = append(h.revokedOrder, revocation{id: id, until: now.Add(revokeFor)})
	}
}

// revokedLocked reports whether id was ended here recently. h.mu is held.
func (h *HTTPHandler) revokedLocked(id string) bool {
	until, ok := h.revoked[id]
	return ok && time.Now().Before(until)
}
