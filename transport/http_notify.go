package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// writeNotification posts a notification. notifications/initialized starts
// the GET listener and returns once the listener's GET has its reply
// headers (see awaitListener); notifications/cancelled also closes the
// reply stream of the request it cancels.
func (s *httpStream) writeNotification(ctx context.Context, m *jsonrpc.Notification, body []byte) error {
	if m.Method == jsonrpc.MethodCancelled {
		if call := s.cancelledCall(m.Params); call != nil {
			defer call.cancel()
		}
	}
	err := s.writeOneWay(ctx, m.Method, body)
	if m.Method == methodInitialized && (err == nil || errors.Is(err, errInitializedByRenewal)) {
		s.mu.Lock()
		s.listenerWanted = true
		s.mu.Unlock()
		awaitListener(ctx, s.startListener(false))
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
	resp, info, err := s.post(ctx, s.ctx, body, what, false)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		// 202 is the rule; some servers answer 200 with a JSON body or 204.
		// A body is of no use here, so only a little of it is read (which
		// keeps the connection reusable) and an SSE body not at all.
		if mediaType(resp.Header.Get("Content-Type")) != "text/event-stream" {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, discardLimit))
		}
		return nil
	}
	if s.sessionExpired(resp, info) {
		if err := s.renew(ctx, info.gen, what); err != nil {
			return err
		}
		if what == methodInitialized {
			return errInitializedByRenewal
		}
		return fmt.Errorf("transport: %s to %s: %w; the session was renewed, the message was not resent", what, s.redacted, ErrSessionExpired)
	}
	readErrorBody(resp)
	return newHTTPError(resp, http.MethodPost)
}

// cancelledCall finds the in-flight request a notifications/cancelled
// names.
func (s *httpStream) cancelledCall(params json.RawMessage) *postCall {
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || !p.RequestID.IsValid() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[p.RequestID]
}
