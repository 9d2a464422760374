package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Multi round-trip requests (MRTR). The modern era has no server→client
// requests: a tools/call, prompts/get or resources/read that needs the
// client's input ends with {resultType: "input_required", inputRequests,
// requestState}, and the client sends the request again with the answers
// in inputResponses and the state echoed. The answers come from the
// handlers registered for the older eras' requests (ClientOptions.Sampling,
// Elicitation, ElicitationURL, Roots), so a user's code is the same in
// both eras.

// maxInputRounds bounds the rounds of one request, as a server that asks
// forever must not keep a call alive forever.
const maxInputRounds = 10

// Load-shedding backoff: an input_required result without inputRequests
// asks the client to come back later.
const (
	shedBackoffFirst = 50 * time.Millisecond
	shedBackoffMax   = 2 * time.Second
)

// inputMethods are the methods whose result may be input_required.
var inputMethods = []string{MethodToolsCall, MethodPromptsGet, MethodResourcesRead}

// InputRequest is one request for input of an input_required result: what
// the server would have sent as a request in the older eras.
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// InputRequired is an input_required result of tools/call, prompts/get or
// resources/read (see ClientOptions.InputRequired).
type InputRequired struct {
	// Method is the request's method; Round counts from 1.
	Method string `json:"-"`
	Round  int    `json:"-"`
	// InputRequests are the server's requests, by the key their answer
	// goes under in inputResponses.
	InputRequests map[string]InputRequest `json:"inputRequests"`
	// RequestState is echoed to the server as is; nil when it sent none.
	RequestState *string `json:"requestState,omitempty"`
}

// inputResult is the part of a result that says whether it is final.
type inputResult struct {
	ResultType string `json:"resultType"`
	InputRequired
}

// InputError means the client could not answer a server's request for
// input: no handler for it, a capability it did not declare, or a handler
// that failed. Err is the cause (a *jsonrpc.Error for -32021).
type InputError struct {
	// Method is the request that asked; Asked is what it asked for
	// (elicitation/create, sampling/createMessage, roots/list, or a
	// capability for -32021).
	Method, Asked string
	Err           error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("mcp: %s: the server asked the client for %s, which it cannot answer: %v", e.Method, e.Asked, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// callWithInput runs a request that may end input_required: it answers
// each round and sends the request again, up to maxInputRounds.
func (c *Client) callWithInput(ctx context.Context, method string, params any, opts *jsonrpc.CallOptions) (json.RawMessage, error) {
	base, err := encodeParams(params)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: encoding params: %w", method, err)
	}
	sent := base
	// Params encoded here or by this module, with answers added to them,
	// are valid; only a json.RawMessage from the caller is unchecked.
	_, unchecked := params.(json.RawMessage)
	backoff := shedBackoffFirst
	limits := roundLimits{base: opts, start: time.Now()}
	for round := 1; ; round++ {
		var toSend any = jsonenc.Encoded(sent)
		if unchecked {
			toSend = json.RawMessage(sent)
		}
		withMeta, err := c.modern.withMetaFor(toSend)
		if err != nil {
			return nil, fmt.Errorf("mcp: %s: adding _meta: %w", method, err)
		}
		ropts, err := limits.forRound(method, round)
		if err != nil {
			return nil, err
		}
		raw, err := c.conn.Call(ctx, method, withMeta, ropts)
		if err != nil {
			if round > 1 && errors.Is(err, jsonrpc.ErrTimeout) && limits.capped() {
				return nil, limits.passed(method, round, err)
			}
			if capErr := missingCapability(method, err); capErr != nil {
				return nil, capErr
			}
			if hErr := headerMismatch(method, err); hErr != nil {
				return nil, hErr
			}
			return nil, requestError(method, err)
		}
		c.modern.observe(raw)
		ir, asks := inputRequired(raw)
		if !asks {
			if err := unaskedTask(method, raw); err != nil {
				return nil, err
			}
			return raw, nil
		}
		if ir == nil {
			return nil, fmt.Errorf("mcp: %s: the input_required result is malformed", method)
		}
		if round >= maxInputRounds {
			return nil, fmt.Errorf("mcp: %s: the server still asked for input after %d rounds; giving up", method, maxInputRounds)
		}
		ir.Method, ir.Round = method, round
		if len(ir.InputRequests) == 0 {
			// Load shedding: come back later with the state, not at once.
			if err := sleepCtx(ctx, backoff); err != nil {
				return nil, fmt.Errorf("mcp: %s: waiting to retry a request the server deferred: %w", method, err)
			}
			backoff = min(2*backoff, shedBackoffMax)
		}
		answers, err := c.answerInput(ctx, ir)
		if err != nil {
			return nil, err
		}
		if sent, err = retryParams(base, answers, ir.RequestState); err != nil {
			return nil, fmt.Errorf("mcp: %s: encoding the retry: %w", method, err)
		}
	}
}

// roundLimits holds the rounds of one request to the cap its options set
// (a tool call's MaxTimeout, the ceiling progress may extend it to), from
// the request's start: the rounds are one call, and a legacy call is
// capped alike while the server asks its questions. Each round keeps its
// own idle deadline, as a legacy call's is moved by the server's requests.
type roundLimits struct {
	base  *jsonrpc.CallOptions
	start time.Time
}

// capped reports whether the options set a cap (the engine applies
// MaxTimeout only to a call with OnProgress and a deadline).
func (l *roundLimits) capped() bool {
	b := l.base
	return b != nil && b.OnProgress != nil && b.MaxTimeout > 0 && b.Timeout > 0
}

// forRound returns the options of round: the first round's as given,
// a later round's with what is left of the cap.
func (l *roundLimits) forRound(method string, round int) (*jsonrpc.CallOptions, error) {
	if round == 1 || !l.capped() {
		return l.base, nil
	}
	left := l.base.MaxTimeout - time.Since(l.start)
	if left <= 0 {
		return nil, l.passed(method, round, jsonrpc.ErrTimeout)
	}
	o := *l.base
	o.MaxTimeout, o.Timeout = left, min(o.Timeout, left)
	return &o, nil
}

// passed is the error of a request whose cap passed in round: err (the
// engine's timeout of the round, or ErrTimeout) stays the cause, but the
// message counts from the request's start, which the round's does not.
func (l *roundLimits) passed(method string, round int, err error) error {
	return &wrappedError{cause: err, msg: fmt.Sprintf("mcp: %s timed out after %v, in round %d of input: the rounds may not extend a call beyond its MaxTimeout (%v)",
		method, time.Since(l.start).Round(time.Millisecond), round, l.base.MaxTimeout)}
}

// inputRequired reports whether raw is an input_required result, and
// decodes it (nil if malformed). A complete result costs a scan.
func inputRequired(raw json.RawMessage) (*InputRequired, bool) {
	if !bytes.Contains(raw, []byte("input_required")) {
		return nil, false
	}
	var r inputResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, bytes.Contains(raw, []byte(`"resultType":"input_required"`))
	}
	if r.ResultType != "input_required" {
		return nil, false
	}
	return &r.InputRequired, true
}

// answerInput answers every request of a round, through
// ClientOptions.InputRequired when set, else the registered handlers.
func (c *Client) answerInput(ctx context.Context, ir *InputRequired) (map[string]json.RawMessage, error) {
	// The handlers' ctx ends with the session too, as it does for an
	// older era's server request: nobody could send their answer then.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(sessionCtx{c}, cancel)()
	answers, err := c.answerInputIn(ctx, ir)
	if err != nil && c.conn.Err() != nil && errors.Is(err, context.Canceled) {
		// Close (or the stream's end) cut the handlers off: say so, not
		// that they could not answer.
		return nil, requestError(ir.Method, c.conn.Err())
	}
	return answers, err
}

// answerInputIn is answerInput under the handlers' ctx.
func (c *Client) answerInputIn(ctx context.Context, ir *InputRequired) (map[string]json.RawMessage, error) {
	if c.opts.InputRequired != nil {
		answers, err := c.opts.InputRequired(c.withOrigin(ctx), ir)
		if err != nil {
			return nil, fmt.Errorf("mcp: %s: ClientOptions.InputRequired: %w", ir.Method, err)
		}
		return answers, nil
	}
	answers := make(map[string]json.RawMessage, len(ir.InputRequests))
	keys := make([]string, 0, len(ir.InputRequests))
	for k := range ir.InputRequests {
		keys = append(keys, k)
	}
	slices.Sort(keys) // handlers run in a stable order: user prompts appear predictably
	for _, key := range keys {
		req := ir.InputRequests[key]
		if !slices.Contains([]string{MethodElicitationCreate, MethodSamplingCreateMessage, MethodRootsList}, req.Method) {
			return nil, &InputError{Method: ir.Method, Asked: fmt.Sprintf("%q", clip(req.Method)), Err: errors.New("not a request the server may send as input")}
		}
		res, err := c.handleInput(ctx, req)
		if err != nil {
			var rpcErr *jsonrpc.Error
			switch {
			case errors.As(err, new(noHandlerError)):
				err = fmt.Errorf("no handler is registered (ClientOptions.%s)", handlerOption(req.Method))
			case errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeMethodNotFound:
				// A handler's own refusal (a gateway whose host did not
				// declare the capability): its words, and not a JSON-RPC
				// error the server answered the call with.
				err = errors.New(rpcErr.Message)
			}
			return nil, &InputError{Method: ir.Method, Asked: req.Method, Err: err}
		}
		if answers[key], err = json.Marshal(res); err != nil {
			return nil, fmt.Errorf("mcp: %s: encoding the answer to %s: %w", ir.Method, req.Method, err)
		}
	}
	return answers, nil
}

// handleInput runs the handler for one input request. A handler that
// panics fails the round with an error saying so, as its panic on an
// older era's server request becomes an internal-error answer (the
// engine recovers there): the same handler serves both eras, so it must
// not take the caller down in one of them. The panic also goes to the
// ErrorHook, like the engine's.
func (c *Client) handleInput(ctx context.Context, req InputRequest) (res any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the %s handler panicked: %v", req.Method, v)
			c.report(fmt.Errorf("mcp: %w", err))
			res = nil
		}
	}()
	return c.handle(ctx, c.conn, &jsonrpc.Request{Method: req.Method, Params: req.Params})
}

// handlerOption names the option whose handler answers method.
func handlerOption(method string) string {
	switch method {
	case MethodElicitationCreate:
		return "Elicitation or ElicitationURL"
	case MethodSamplingCreateMessage:
		return "Sampling"
	}
	return "Roots or InitialRoots"
}

// missingCapability turns -32021 into an InputError naming the
// capabilities the server wanted.
func missingCapability(method string, err error) error {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != CodeMissingClientCapability {
		return nil
	}
	var data struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	_ = json.Unmarshal(rpcErr.Data, &data)
	names := make([]string, 0, len(data.Required))
	for k, v := range data.Required {
		var exts map[string]json.RawMessage
		if k == "extensions" && json.Unmarshal(v, &exts) == nil && len(exts) > 0 {
			// Such as io.modelcontextprotocol/tasks, for a tool that
			// runs only as a task: name the extension itself.
			for ext := range exts {
				names = append(names, fmt.Sprintf("extension %q", clip(ext)))
			}
			continue
		}
		names = append(names, fmt.Sprintf("%q", clip(k)))
	}
	slices.Sort(names)
	asked := "a client capability it did not name"
	if len(names) > 0 {
		asked = "the client capability " + strings.Join(names, ", ")
	}
	return &InputError{Method: method, Asked: asked, Err: fmt.Errorf("this client did not declare it: %w", rpcErr)}
}

// encodeParams returns params as a JSON object ("{}" for none).
func encodeParams(params any) ([]byte, error) {
	switch p := params.(type) {
	case nil:
		return []byte("{}"), nil
	case json.RawMessage:
		return p, nil
	case jsonenc.Encoded: // written by this module, e.g. tools/call's
		return p, nil
	}
	return json.Marshal(params)
}

// retryParams is the request's params with inputResponses and the echoed
// requestState.
func retryParams(base []byte, answers map[string]json.RawMessage, state *string) ([]byte, error) {
	if answers == nil {
		answers = map[string]json.RawMessage{}
	}
	a, err := json.Marshal(answers)
	if err != nil {
		return nil, err
	}
	members := append([]byte(`"inputResponses":`), a...)
	if state != nil {
		s, _ := json.Marshal(*state)
		members = append(append(members, `,"requestState":`...), s...)
	}
	return spliceMembers(base, members)
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
