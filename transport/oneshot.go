package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// OneShotOptions configures CallHTTP. The zero value is usable.
type OneShotOptions struct {
	// Headers are sent with the POST, typically Authorization. Their
	// values never appear in errors.
	Headers http.Header
	// HTTPClient sends the request; nil means the connection pool the
	// package's HTTP transports share (see StreamableHTTP.HTTPClient),
	// whose idle connections are closed when nothing uses it any more. A
	// redirect to another origin never carries Authorization, Cookie or
	// Headers.
	HTTPClient *http.Client
	// Timeout bounds the whole call on top of ctx; zero means only ctx
	// bounds it. When it passes, the error wraps jsonrpc.ErrTimeout.
	Timeout time.Duration
	// MaxBodySize bounds a JSON reply, or one SSE event, in bytes. Zero
	// means DefaultMaxBodySize; negative means unlimited.
	MaxBodySize int64
	// ProtocolVersion, if set, is sent as MCP-Protocol-Version, which
	// servers of 2025-06-18 and later expect outside initialize.
	ProtocolVersion string
}

// CallHTTP sends one request to a Streamable HTTP endpoint in a single POST,
// without a session or handshake, and returns the server's response to it.
// It suits stateless servers and quick probes; a conversation needs a
// StreamableHTTP stream and jsonrpc.Conn instead.
//
// The reply may be JSON or an SSE stream. On a stream, keep-alive comments,
// priming events, notifications, responses with other ids and the server's
// own requests are skipped: a one-shot call has no session over which to
// answer a request, so a server that waits for that answer will let the
// call run into its deadline. A JSON-RPC error response is returned as a
// response (check Response.Error), not as an error.
//
// Errors: a non-2xx status is an *HTTPError (with the WWW-Authenticate and
// Mcp-Auth-Server hints); a reply that is not valid JSON-RPC wraps a
// *jsonrpc.DecodeError; a stream that ends without the response, or a 202
// with no body, is an error that says so. No error quotes a header value,
// the URL's password or its query values.
func CallHTTP(ctx context.Context, url string, req *jsonrpc.Request, opts *OneShotOptions) (*jsonrpc.Response, error) {
	if opts == nil {
		opts = &OneShotOptions{}
	}
	if req == nil {
		return nil, errors.New("transport: CallHTTP needs a request")
	}
	if !req.ID.IsValid() {
		return nil, fmt.Errorf("transport: CallHTTP %s: the request has no id, so no response could be matched to it", req.Method)
	}
	u, err := parseHTTPURL("one-shot HTTP", url)
	if err != nil {
		return nil, err
	}
	if err := checkHeaderValues(opts.Headers, u); err != nil {
		return nil, err
	}
	body, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		return nil, fmt.Errorf("transport: encoding %s for %s: %w", req.Method, redactParsedURL(u), err)
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout,
			fmt.Errorf("%w: no response within %s", jsonrpc.ErrTimeout, opts.Timeout))
		defer cancel()
	}
	sender := newHTTPSender(opts.HTTPClient, opts.Headers, nil, u)
	defer sender.close()

	c := oneShot{req: req, redacted: redactParsedURL(u), max: opts.MaxBodySize}
	if c.max == 0 {
		c.max = DefaultMaxBodySize
	}
	h := baseHeader(opts.Headers, u)
	h.Set("Accept", acceptPOST)
	h.Set("Content-Type", "application/json")
	if opts.ProtocolVersion != "" {
		h.Set(headerProtocolVersion, opts.ProtocolVersion)
	}
	resp, err := sender.do(newHTTPRequest(ctx, http.MethodPost, u, h, body), body)
	if err != nil {
		if ctx.Err() != nil {
			return nil, c.errorf("%w", context.Cause(ctx))
		}
		return nil, httpRequestError(http.MethodPost, c.redacted, req.Method, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, newHTTPError(resp, http.MethodPost)
	}
	var r *jsonrpc.Response
	switch ct := mediaType(resp.Header.Get("Content-Type")); {
	case ct == "application/json":
		r, err = c.readJSON(resp.Body)
	case ct == "text/event-stream":
		r, err = c.readSSE(resp.Body)
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		return nil, c.errorf("the server answered %s without a response, as if the request were a notification", resp.Status)
	default:
		return nil, c.errorf("the server answered %s with Content-Type %q; a request needs application/json or text/event-stream", resp.Status, clipRunes(ct, 80))
	}
	if err != nil && ctx.Err() != nil {
		// A read cut short by the deadline says more by naming it.
		return nil, c.errorf("reading the reply: %w", context.Cause(ctx))
	}
	if r != nil && r.Error != nil {
		scrubRPCError(r.Error, sentSecrets(resp.Request))
	}
	return r, err
}

// oneShot is the state of one CallHTTP, for reading and error messages.
type oneShot struct {
	req      *jsonrpc.Request
	redacted string
	max      int64 // bytes; negative means unlimited
}

func (c *oneShot) errorf(format string, args ...any) error {
	return fmt.Errorf("transport: POST %s (%s): %w", c.redacted, c.req.Method, fmt.Errorf(format, args...))
}

func (c *oneShot) readJSON(body io.Reader) (*jsonrpc.Response, error) {
	if c.max >= 0 {
		body = io.LimitReader(body, c.max+1)
	}
	data, err := io.ReadAll(body)
	if err != nil {
		return nil, c.errorf("reading the reply: %w", err)
	}
	if c.max >= 0 && int64(len(data)) > c.max {
		return nil, c.errorf("the reply is larger than the maximum of %d bytes", c.max)
	}
	msgs, err := jsonrpc.DecodeFrame(data)
	if err != nil {
		return nil, c.errorf("the reply is not valid JSON-RPC: %w", err)
	}
	if r := c.match(msgs); r != nil {
		return r, nil
	}
	return nil, c.errorf("the JSON reply holds no response to request %s", c.req.ID)
}

func (c *oneShot) readSSE(body io.Reader) (*jsonrpc.Response, error) {
	rd := sse.NewReader(body)
	if c.max > 0 {
		rd.SetMaxEventSize(int(min(c.max, int64(maxInt))))
	}
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			if id := rd.LastEventID(); id != "" {
				return nil, c.errorf("the SSE reply ended after event id %q without the response to request %s (a one-shot call does not resume streams)", clipRunes(id, 60), c.req.ID)
			}
			return nil, c.errorf("the SSE reply ended without the response to request %s", c.req.ID)
		}
		if err != nil {
			return nil, c.errorf("reading the SSE reply: %w", err)
		}
		if (ev.Type != "" && ev.Type != "message") || len(bytes.TrimSpace(ev.Data)) == 0 {
			continue // priming events, keep-alives, other event types
		}
		msgs, err := jsonrpc.DecodeFrame(ev.Data)
		if err != nil {
			return nil, c.errorf("an SSE event of the reply is not valid JSON-RPC: %w", err)
		}
		if r := c.match(msgs); r != nil {
			return r, nil
		}
	}
}

// match returns the response to the request among msgs. An error response
// without an id also counts: servers send one when they reject a request
// before reading its id, and this POST carried only this request.
func (c *oneShot) match(msgs []jsonrpc.Message) *jsonrpc.Response {
	for _, m := range msgs {
		r, ok := m.(*jsonrpc.Response)
		if !ok {
			continue
		}
		if r.ID == c.req.ID {
			return r
		}
		if !r.ID.IsValid() && r.Error != nil {
			cp := *r
			cp.ID = c.req.ID
			return &cp
		}
	}
	return nil
}

const maxInt = int(^uint(0) >> 1)
