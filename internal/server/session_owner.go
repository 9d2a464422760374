package server

import (
	"errors"
	"net/http"
)

// errNotOwner is why a request naming a session it did not start is
// refused: whoever has a session's id must still be the session's caller
// (the spec asks servers to bind session ids to the user), or one user
// who learnt another's id could post into that session, answer what the
// server asked its host, listen on its stream or end it.
var errNotOwner = errors.New("refused a session id: sent by another caller than the one that started the session")

// ownedBy reports whether r comes from whoever started ss, as
// HTTPOptions.Peer names callers; without Peer every caller is the same.
func (h *HTTPHandler) ownedBy(ss *Session, r *http.Request) bool {
	return h.opts.Peer == nil || h.opts.Peer(r) == ss.peer
}
