package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// writeNotification posts a notification. notifications/initialized starts
// the GET listener and returns once the listener's GET has its reply
// headers (see awaitListener); notifications/cancelled also closes the
// reply stream of the request it cancels, once the notification went out.
func (s *httpStream) writeNotification(ctx context.Context, m *jsonrpc.Notification, body []byte) error {
	if m.Method == jsonrpc.MethodCancelled {
		id, ok := cancelledID(m.Params)
		if ok && s.stateless.Load() {
			s.cancelCall(id) // closing the reply stream is the cancel
			return nil
		}
		if ok {
			defer s.cancelCall(id)
		}
	}
	err := s.writeOneWay(ctx, m.Method, body)
	if m.Method == methodInitialized && (err == nil || errors.Is(err, errInitializedByRenewal)) {
		s.mu.Lock()
		s.listenerWanted = true
		s.mu.Unlock()
		s.awaitListener(ctx, s.startListener(false))
		return nil
	}
	return err
}

// errInitializedByRenewal: notifications/initialized met an expired
// session, and the renewal already sent a fresh one in the new session.
var errInitializedByRenewal = errors.New("initialized sent by the session renewal")

// writeOneWay posts a notification or response and waits for acceptance.
// These are never replayed after a session renewal: a response answers a
// request of the old session and a notification refers to its state.
func (s *httpStream) writeOneWay(ctx context.Context, what string, body []byte) error {
	c := takeCall()
	c.method, c.body, c.oneWay = what, body, true
	if !s.track(c) {
		return s.termErr
	}
	out, err := s.exchange(ctx, c)
	defer s.finishCall(c) // no reply to read: the call is never kept

	if err != nil {
		return err
	}
	resp := out.resp
	if resp == nil {
		return nil // accepted
	}
	defer resp.Body.Close()
	if s.sessionExpired(resp, out.info) {
		if err := s.renew(ctx, out.info.gen, what); err != nil {
			return err
		}
		if what == methodInitialized {
			return errInitializedByRenewal
		}
		return fmt.Errorf("transport: %s to %s: %w; the session was renewed, the message was not resent", what, s.redacted(), ErrSessionExpired)
	}
	readErrorBody(resp)
	return newHTTPError(resp, http.MethodPost)
}

// cancelledID returns the request id a notifications/cancelled names.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || !p.RequestID.IsValid() {
		return jsonrpc.ID{}, false
	}
	return p.RequestID, true
}
