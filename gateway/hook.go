package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// Outcome is how a routed tools/call ended.
type Outcome string

// The outcomes of a routed call.
const (
	// OutcomeOK: the upstream answered a result without isError.
	OutcomeOK Outcome = "ok"
	// OutcomeIsError: the upstream answered a result with isError.
	OutcomeIsError Outcome = "isError"
	// OutcomeError: the call failed: the server was down, died, or
	// answered a JSON-RPC error.
	OutcomeError Outcome = "error"
	// OutcomeCancelled: the host cancelled the call.
	OutcomeCancelled Outcome = "cancelled"
	// OutcomeInputRequired: the upstream asked something (elicitation,
	// sampling, roots) of a 2026-07-28 host, which answers by retrying its
	// call; this round's upstream call was cancelled, and the retry is a
	// call of its own.
	OutcomeInputRequired Outcome = "input_required"
)

// Call is one tools/call the gateway routes to an upstream, as a CallHook
// sees it.
type Call struct {
	// Server and Tool are the upstream's names for the tool.
	Server, Tool string
	// Host is who made the call: "stdio", "session:" and a hash of the
	// HTTP session's id, "http" for a sessionless request, or what the
	// HTTP authentication named ("token" for the static token, the JWT's
	// subject).
	Host string
	// Arguments are the call's arguments as the host sent them.
	Arguments json.RawMessage
	// Meta is the host's params._meta (nil when absent).
	Meta json.RawMessage
	// UpstreamMeta is sent to the upstream as params._meta; a hook adds
	// what it propagates there (a trace's traceparent).
	UpstreamMeta map[string]any
}

// CallEnd is how a routed call ended.
type CallEnd struct {
	Duration time.Duration
	Outcome  Outcome
	// Error is the failure's text, or an isError result's first text,
	// passed through Options.Redact; empty when the outcome is ok.
	Error string
}

// CallHook observes the routed calls: the audit log, the metrics and the
// traces are hooks. It runs before the upstream is called and may return
// a ctx for that call (one carrying a span); the func it returns (nil for
// none) runs once when the call has ended. Hooks run in the order given
// and end in the reverse order. A hook must not block.
type CallHook func(ctx context.Context, c *Call) (context.Context, func(*CallEnd))

// observedCall is one routed call's run through the hooks.
type observedCall struct {
	start time.Time
	ends  []func(*CallEnd)
	// endsBuf holds ends for up to two hooks (the audit log and the
	// metrics) without an allocation of its own.
	endsBuf [2]func(*CallEnd)
	end     CallEnd
}

// startCall runs the hooks before a routed call, recording in oc what
// finish needs.
func (g *Gateway) startCall(ctx context.Context, c *Call, oc *observedCall) context.Context {
	oc.start = time.Now()
	oc.ends = oc.endsBuf[:0]
	for _, h := range g.hooks {
		next, end := h(ctx, c)
		if next != nil {
			ctx = next
		}
		if end != nil {
			oc.ends = append(oc.ends, end)
		}
	}
	return ctx
}

// finish tells the hooks how the call ended.
// asked says the host was asked for input it gives on a retry.
func (oc *observedCall) finish(ctx context.Context, res *mcp.CallToolResult, err error, asked bool, redact func(string) string) {
	if len(oc.ends) == 0 {
		return
	}
	end := &oc.end
	*end = CallEnd{Duration: time.Since(oc.start), Outcome: OutcomeOK}
	switch {
	case asked:
		end.Outcome = OutcomeInputRequired
	case err != nil && (errors.Is(err, context.Canceled) || ctx.Err() != nil):
		end.Outcome, end.Error = OutcomeCancelled, err.Error()
	case err != nil:
		end.Outcome, end.Error = OutcomeError, err.Error()
	case res.IsError:
		end.Outcome = OutcomeIsError
		for _, c := range res.Content {
			if c.Type == "text" {
				end.Error = c.Text
				break
			}
		}
	}
	if end.Error != "" && redact != nil {
		end.Error = redact(end.Error)
	}
	for i := len(oc.ends) - 1; i >= 0; i-- {
		oc.ends[i](end)
	}
}

// hostOf names who made a call: what the HTTP authentication said, else
// the session (by a hash of its id, which must not be shown as is), else
// stdio.
func hostOf(ss *server.Session) string {
	if ss == nil {
		return "stdio"
	}
	switch p := ss.Peer(); p {
	case "":
		return "stdio"
	case peerHTTP:
		if v := ss.ProtocolVersion(); v == "" || v == server.ModernProtocolVersion {
			return "http" // no initialize: one request, no session to name
		}
		sum := sha256.Sum256([]byte(ss.ID()))
		return "session:" + hex.EncodeToString(sum[:6])
	default:
		return p
	}
}
