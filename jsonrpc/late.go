package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

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
// it decodes it, and calls Recheck when it is not JSON. Every other way
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
	// guessed: the result was not even walked to find its end, but
	// taken to be the frame's last member (decodeGuessingResult). A
	// result that is not one valid value may then be a wrong guess in a
	// valid frame, which recheck tells from a frame the codec refuses.
	guessed bool
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
		if r := decodeGuessingResult(data); r != nil {
			r.late = &lateResult{frame: data, excerpt: frameExcerpt(data), scrub: scrub, guessed: true}
			return append(dst, r), nil
		}
		if r := decodeLeavingResult(data); r != nil {
			r.late = &lateResult{frame: data, excerpt: frameExcerpt(data), scrub: scrub}
			return append(dst, r), nil
		}
	}
	return AppendFrameRetaining(dst, frame)
}

// decodeGuessingResult decodes data as a response whose "result" comes
// last, after "jsonrpc" and "id", as peers write them: the members before
// it are checked, and the result is guessed to be the rest of the frame,
// not walked at all. Finding its end quote by quote cost a tools/list
// page of 1,000 tools almost what checking it did (bench/NOTES.md, the
// twenty-first round); the consumer that checks the result as it decodes
// it confirms the guess too, since only the right guess is one valid
// value. nil when the frame does not look so (the members in another
// order, an escaped name, anything wrong before the result).
func decodeGuessingResult(data []byte) *Response {
	var env envelope
	plain := true
	result, ok := jsonscan.ObjectLast(data, "result", func(key, value []byte) bool {
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			plain = false
			return false
		}
		env.set(key, value)
		return true
	})
	if !ok || !plain {
		return nil
	}
	env.set([]byte("result"), result)
	m, err := env.message(data, true)
	if r, ok := m.(*Response); ok && err == nil && r.Error == nil && r.Result != nil {
		return r
	}
	return nil
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
	if r.late.guessed {
		found, d := r.late.recheck(r.ID)
		if d != nil {
			return d
		}
		r.Result, r.Error, r.late = found.Result, found.Error, nil
		return nil
	}
	return r.late.refused()
}

// recheck decodes the frame of a guessed result as the codec does, for a
// result that was not one valid value: the response the codec finds when
// the guess was wrong (other members came after it), which may be an
// error response (a null "result" followed by an "error"), or the
// codec's error. The frame must still be as it came. A repeated id after
// the result, which the codec would have taken for the response's, is
// refused: the response was given to the call of the first id.
func (l *lateResult) recheck(id ID) (*Response, *DecodeError) {
	if !jsonscan.Valid(l.frame) {
		// As refused says it, from the excerpt taken before a consumer
		// may have rewritten string contents (latecheck.Params).
		return nil, l.refused()
	}
	msgs, err := AppendFrameRetaining(nil, l.frame)
	var d *DecodeError
	switch {
	case errors.As(err, &d):
	case err != nil:
		d = &DecodeError{Reason: err.Error(), Excerpt: l.excerpt, Err: err}
	case len(msgs) == 1:
		if r, ok := msgs[0].(*Response); ok && r.ID == id {
			return r, nil
		}
		fallthrough
	default:
		d = &DecodeError{Reason: `a repeated "id" after "result"`, Excerpt: l.excerpt}
	}
	if l.scrub != nil {
		l.scrub(d)
	}
	return nil, d
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

// rechecker is latecheck.Params.Recheck for call p and its response resp.
// (A function of its own, so that only a late result costs the closure.)
func (c *Conn) rechecker(p *pendingCall, resp *Response) func() (json.RawMessage, error) {
	return func() (json.RawMessage, error) {
		if !resp.late.guessed {
			return nil, c.refuseLate(p, resp.late.refused())
		}
		found, d := resp.late.recheck(resp.ID)
		if d != nil {
			return nil, c.refuseLate(p, d)
		}
		if found.Error != nil {
			return nil, found.Error // as the call would have ended
		}
		return found.Result, nil
	}
}

// refuseLate fails call p, whose response's result was found not to be
// JSON (d): the frame is reported as any unreadable one, and the call
// fails as one whose response could not be read.
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

// DecodeGivenUp makes the context the engine writes a call's request with
// a readmode.FrameDecoder, for a stream that reads the reply within the
// write (an HTTP POST's JSON reply) into a buffer of its own: the reply
// to a call that checks its result itself is then decoded as a frame
// given up to the engine. Any other reply is decoded as the codec does.
func (w *writeContext) DecodeGivenUp(dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	if w.call == nil || w.call.late == nil {
		return AppendFrameRetaining(dst, frame)
	}
	return decodeGivenUp(dst, frame, scrub)
}

// DecodeGivenUp makes the engine's turns a readmode.FrameDecoder.
func (p *pendingCall) DecodeGivenUp(dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	return decodeGivenUp(dst, frame, scrub)
}

// DecodeGivenUp makes the engine's turns a readmode.FrameDecoder.
func (r *bgReceiver) DecodeGivenUp(dst []Message, frame []byte, scrub func(error)) ([]Message, error) {
	return decodeGivenUp(dst, frame, scrub)
}
