package jsonrpc

import (
	"bytes"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// A 16 MB text result was walked twice: the codec checked the frame as
// JSON, then the MCP client's decoder found the text's escapes again to
// unescape them (bench/NOTES.md, the seventeenth round); so was a large
// tools/list page, checked by the codec and then walked by the page
// decoder (the twenty-first round). A frame that the
// stream gives up to the engine (readmode.FrameDecoder) and that is long
// enough for it to matter is decoded with its "result" left unchecked,
// when it is a response with a result and nothing else is wrong with it.
// Such a Response never leaves the engine unchecked except to a call
// whose params are a *latecheck.Params: its caller checks the result as
// it decodes it, and calls Refuse when it is not JSON. Every other way
// out checks it first (checkLate).

// lateMin is the frame length from which a result is left unchecked:
// below it a second walk costs less than the bookkeeping. It is the
// shortest frame a line stream gives up (jsonl's minLongRead), so that a
// tools/list page of some hundreds of tools is walked once too (its
// decoder checks it as it reads; bench/NOTES.md, the twenty-first round).
const lateMin = 64 << 10

// lateResult is what a Response whose result was left unchecked keeps of
// its frame, to refuse it as the codec would have.
type lateResult struct {
	frame []byte // the frame, given up to the engine
	// excerpt is the frame's start as a DecodeError shows it, taken
	// before the result's consumer could rewrite any of it.
	excerpt string
	scrub   func(error) // the stream's, for the decode error; or nil
}

// decodeGivenUp is AppendFrameRetaining for a frame that the stream gave
// up to the engine: a large response's result is left unchecked. Any
// other frame, or any frame in which something else is wrong, is decoded
// by AppendFrameRetaining, so that its outcome, an error included, is
// exactly that one's.
func decodeGivenUp(dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	return decodeGivenUpFrom(lateMin, dst, frame, scrub)
}

// decodeGivenUpFrom is decodeGivenUp leaving results from frames of min
// bytes on (tests leave them from any).
func decodeGivenUpFrom(min int, dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	data := bytes.TrimSpace(frame)
	if len(data) >= min && len(data) > 0 && data[0] == '{' {
		if r := decodeLeavingResult(data); r != nil {
			r.late = &lateResult{frame: data, excerpt: frameExcerpt(data), scrub: scrub}
			return append(dst, r), nil
		}
	}
	return AppendFrameRetaining(dst, frame)
}

// decodeLeavingResult decodes data, a frame that starts with '{', as a
// response whose one "result" member is left unchecked; nil when it is
// not that or anything else is wrong with it.
func decodeLeavingResult(data []byte) *Response {
	var env envelope
	results, left := 0, false
	valid := validMembersLeaving(data, "result", func(key, value []byte, l bool) {
		if string(key) == "result" {
			results, left = results+1, l
		}
		env.set(key, value)
	})
	if !valid || results != 1 || !left {
		// A repeated "result" keeps its last value, and the codec would
		// have checked the others: not worth a path of its own.
		return nil
	}
	m, err := env.message(data, true)
	if r, ok := m.(*Response); ok && err == nil && r.Error == nil && r.Result != nil {
		return r
	}
	return nil
}

// checkLate checks a result left unchecked, for a Response going anywhere
// but to a caller that checks it itself; the error is the codec's.
func (r *Response) checkLate() *DecodeError {
	if r.late == nil || jsonscan.Valid(r.Result) {
		r.late = nil
		return nil
	}
	return r.late.refused()
}

// refused is the decode error the codec gives for the frame, whose result
// is not valid JSON.
func (l *lateResult) refused() *DecodeError {
	err := syntaxError(l.frame)
	d := &DecodeError{Reason: "malformed JSON: " + syntaxReason(err), Excerpt: l.excerpt, Err: err}
	if l.scrub != nil {
		l.scrub(d)
	}
	return d
}

// refuser is latecheck.Params.Refuse for call p and its response resp.
// (A function of its own, so that only a late result costs the closure.)
func (c *Conn) refuser(p *pendingCall, resp *Response) func() error {
	return func() error { return c.refuseLate(p, resp.late.refused()) }
}

// refuseLate is latecheck.Params.Refuse for call p, whose response's
// result was found not to be JSON (d): the frame is reported as any
// unreadable one, and the call fails as one whose response could not be
// read.
func (c *Conn) refuseLate(p *pendingCall, d *DecodeError) error {
	c.reportUnreadable(d)
	return unreadableResponse(p.method, p.id, d)
}

// unreadableResponse is the error of call method (id) whose response
// could not be read.
func unreadableResponse(method string, id int64, d *DecodeError) *Error {
	return &Error{
		Code:    CodeParseError,
		Message: fmt.Sprintf("jsonrpc: the peer's response to %s (id %d) is not valid JSON-RPC: %v", method, id, d),
	}
}

// takesLate reports whether r, whose result was left unchecked, answers a
// pending call that checks the result itself. A call given up after this
// drops r unread, as it drops any late answer.
func (c *Conn) takesLate(r *Response) bool {
	id, isInt := r.ID.Int64()
	takes := false
	if isInt {
		c.update(func(s *inFlight) {
			p := s.calls.get(id)
			takes = p != nil && p.late != nil
		})
	}
	return takes
}

// DecodeGivenUp makes the engine's turns a readmode.FrameDecoder.
func (p *pendingCall) DecodeGivenUp(dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	return decodeGivenUp(dst, frame, scrub)
}

// DecodeGivenUp makes the engine's turns a readmode.FrameDecoder.
func (r *bgReceiver) DecodeGivenUp(dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	return decodeGivenUp(dst, frame, scrub)
}
