package server

import (
	"net/http"
	"strconv"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// JSON-RPC batches over Streamable HTTP. Protocol 2025-03-26 lets a POST
// body be "an array batching one or more requests and/or notifications"
// or "one or more responses", which the server must accept; 2025-06-18
// removed batches, so only a session that negotiated 2025-03-26 gets
// them, and a later one gets 400 saying which version removed them.
//
// A batch is taken apart and its messages handed to the session one by
// one, as the stdio and legacy HTTP+SSE transports do with theirs
// (jsonrpc.DecodeFrame, then Session.receive): the session never sees a
// batch. Only the reply is the transport's own: one reply for the POST,
// which ends once every request of the batch is answered. As an event
// stream each response is an event of its own (the spec: the responses
// "MAY be batched", so need not be); as application/json the reply is the
// array of the responses, the answer JSON-RPC 2.0 gives a batch (the spec's
// "return one JSON object" is written for a single request).
//
// Items that are not valid messages are answered as stdio answers them:
// the valid ones are still handled, and one error without id (the
// codec's reasons for each bad item) goes with the batch's reply, or is
// the body of a 400 when the batch holds no request to reply to.

// batchVersion is the one protocol version with batches, and
// batchRemovedIn the version that removed them.
const (
	batchVersion   = "2025-03-26"
	batchRemovedIn = "2025-06-18"
)

// servePostBatch serves a POST whose body is a JSON array. Headers were
// checked by the caller.
func (h *HTTPHandler) servePostBatch(w http.ResponseWriter, r *http.Request, body []byte) {
	// Decoded first, as a single message is: a body that is no message
	// at all gets the same answer in a session or without one.
	msgs, err := jsonrpc.DecodeFrame(body)
	if len(msgs) == 0 { // [] (Invalid Request), or no item valid
		httpErrorFor(w, http.StatusBadRequest, jsonrpc.ID{}, badFrameError(err))
		return
	}
	if h.opts.Stateless {
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "Bad Request: a JSON-RPC batch (JSON array) needs a session of protocol %s, and this server keeps no sessions: send one message per POST", batchVersion)
		return
	}
	// initialize is never batched ("The initialize request MUST NOT be
	// part of a JSON-RPC batch"), so a batch needs a session already. A
	// refusal of the session has no one id to answer under: null.
	o := h.session(w, r, jsonrpc.ID{})
	if o == nil {
		return
	}
	defer o.release()
	w.Header().Set(headerSessionID, o.ss.ID())
	if v := o.ss.ProtocolVersion(); v != batchVersion {
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "Bad Request: a JSON-RPC batch (JSON array) where one message was expected: batches belong to protocol %s, protocol %s removed them, and this session speaks %s; send one message per POST", batchVersion, batchRemovedIn, v)
		return
	}
	var bad *jsonrpc.Response
	if err != nil {
		o.ss.problem(err)
		bad = &jsonrpc.Response{Error: badFrameError(err)}
	}
	ids, dup := batchRequestIDs(msgs)
	if dup {
		// Two requests under one id could not both be answered on the
		// reply: the first response would end the wait for the second.
		httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "Bad Request: two requests of the batch have the same id; ids must differ")
		return
	}
	if len(ids) == 0 {
		for _, m := range msgs {
			o.ss.receive(r.Context(), m)
		}
		if bad != nil {
			httpErrorFor(w, http.StatusBadRequest, jsonrpc.ID{}, bad.Error)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	// Scripted misbehaviours and cuts name one request's reply; a batch's
	// reply takes none of them.
	st := o.openBatchReply(ids, h.opts.JSONResponse)
	if !h.opts.JSONResponse {
		o.mu.Lock()
		if h.primesSession(o) {
			o.appendLocked(st, nil, true)
		}
		if bad != nil {
			data, _ := jsonrpc.EncodeMessage(bad)
			o.appendLocked(st, data, false)
		}
		o.mu.Unlock()
	}
	for _, m := range msgs {
		o.ss.receive(r.Context(), m)
	}
	if h.opts.JSONResponse {
		o.writeBatchJSON(w, r, st, len(ids), bad)
		return
	}
	o.attach(st)
	defer o.detach(st)
	beginEventStream(w)
	o.writeStream(w, r, st, 0)
}

// batchRequestIDs lists the ids of the batch's requests, and whether one
// of them appears twice.
func batchRequestIDs(msgs []jsonrpc.Message) (ids []jsonrpc.ID, dup bool) {
	seen := make(map[jsonrpc.ID]struct{}, len(msgs))
	for _, m := range msgs {
		req, ok := m.(*jsonrpc.Request)
		if !ok {
			continue
		}
		if _, ok := seen[req.ID]; ok {
			return nil, true
		}
		seen[req.ID] = struct{}{}
		ids = append(ids, req.ID)
	}
	return ids, false
}

// openBatchReply registers one reply for the requests ids, before the
// session sees them (see openReply); it ends once each has its response.
func (o *httpOut) openBatchReply(ids []jsonrpc.ID, asJSON bool) *replyStream {
	o.mu.Lock()
	defer o.mu.Unlock()
	st := o.newReplyLocked(len(ids), asJSON)
	for _, id := range ids {
		o.byRequest[id] = st
	}
	return st
}

// writeBatchJSON waits for the n responses of a batch's JSON reply and
// writes them as one array, bad (the error for the batch's invalid
// items, or nil) last.
func (o *httpOut) writeBatchJSON(w http.ResponseWriter, r *http.Request, st *replyStream, n int, bad *jsonrpc.Response) {
	b := []byte{'['}
	for i := range n {
		resp, err := o.waitJSON(r, st)
		if err != nil {
			return // the client left or the session ended; nothing to answer
		}
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = jsonrpc.AppendMessage(b, resp)
	}
	if bad != nil {
		b = append(b, ',')
		b, _ = jsonrpc.AppendMessage(b, bad)
	}
	b = append(b, ']')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}
