package server

import (
	"context"
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// redactOut applies Options.Redact to every message a session sends, on
// every transport: the one place all of them pass. Masking works on the
// strings of the JSON, not its bytes, so that a masked message is still
// valid JSON-RPC: a byte-level mask could cut a number or an escape in
// two. The message handed in is not changed (a result may be shared by
// several sessions, as a cached page is); a masked copy goes out.
type redactOut struct {
	outbound
	redact func(string) string
}

func (r redactOut) send(ctx context.Context, msg jsonrpc.Message, related jsonrpc.ID) error {
	return r.outbound.send(ctx, redactMessage(msg, r.redact), related)
}

// redactMessage returns msg with redact applied to the strings of its
// params, result or error, or msg itself when redact changes none.
func redactMessage(msg jsonrpc.Message, redact func(string) string) jsonrpc.Message {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if p, ok := redactRaw(m.Params, redact); ok {
			c := *m
			c.Params = p
			return &c
		}
	case *jsonrpc.Notification:
		if p, ok := redactRaw(m.Params, redact); ok {
			c := *m
			c.Params = p
			return &c
		}
	case *jsonrpc.Response:
		if m.Error != nil {
			e := *m.Error
			e.Message = redact(e.Message)
			data, dataChanged := redactRaw(e.Data, redact)
			if e.Message == m.Error.Message && !dataChanged {
				return msg
			}
			e.Data = data
			c := *m
			c.Error = &e
			return &c
		}
		if res, ok := redactRaw(m.Result, redact); ok {
			c := *m
			c.Result = res
			return &c
		}
	}
	return msg
}

// redactRaw applies redact to each string of raw, when redact changes raw
// taken as a whole (the cheap look that almost every message passes).
func redactRaw(raw json.RawMessage, redact func(string) string) (json.RawMessage, bool) {
	if len(raw) == 0 {
		return raw, false
	}
	if whole := string(raw); redact(whole) == whole {
		return raw, false
	}
	out, changed := jsonscan.MapStrings(raw, redact)
	return out, changed
}
