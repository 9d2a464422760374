package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/latecheck"
)

// withProgressToken puts params._meta.progressToken = token into params.
// Absent params become {"_meta":{"progressToken":token}}; an existing _meta
// object is merged into (a progressToken already there is replaced: the
// engine must own the token to route progress). Params that are not an
// object cannot carry a token and are an error; valid says params are
// known valid JSON (encoded by this module), which spares a second scan.
func withProgressToken(params json.RawMessage, token int64, valid bool) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(params)
	if len(trimmed) == 0 {
		out := appendTokenMember(make([]byte, 0, len(tokenMemberPrefix)+24), token)
		return append(out, '}'), nil
	}
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("params must be a JSON object to carry a progress token, got %s", excerpt(trimmed))
	}
	if !valid && !json.Valid(trimmed) {
		return nil, fmt.Errorf("params are not valid JSON: %s", excerpt(trimmed))
	}
	// Fast path: no "_meta" member (even an escaped one spells "meta"), so
	// the member goes in front and the caller's bytes stay as they are.
	if !bytes.Contains(trimmed, []byte("meta")) {
		rest := bytes.TrimSpace(trimmed[1:])
		out := appendTokenMember(make([]byte, 0, len(trimmed)+len(tokenMemberPrefix)+24), token)
		if rest[0] != '}' {
			out = append(out, ',')
		}
		return append(out, rest...), nil
	}
	if out, ok := tokenIntoLeadingMeta(trimmed, token); ok {
		return out, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return nil, fmt.Errorf("params are not a JSON object: %w", err)
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := obj["_meta"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &meta); err != nil || meta == nil {
			return nil, fmt.Errorf("params._meta must be an object to carry a progress token, got %s", excerpt(raw))
		}
	}
	meta["progressToken"] = json.RawMessage(strconv.FormatInt(token, 10))
	var err error
	if obj["_meta"], err = json.Marshal(meta); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

const tokenMemberPrefix = `{"_meta":{"progressToken":`

// leadingMeta is how params begin when the only "meta" in them is a
// _meta object put first, as the stateless era's requests (every one
// carries _meta) are built.
const leadingMeta = `{"_meta":{`

// tokenIntoLeadingMeta is the second fast path: valid params whose one
// "meta" is a leading _meta object without escapes (so no member of it
// can spell progressToken in disguise) and without a progressToken get
// the token as that object's first member, their bytes otherwise kept.
// ok false means the general path must decide.
func tokenIntoLeadingMeta(params []byte, token int64) ([]byte, bool) {
	if !bytes.HasPrefix(params, []byte(leadingMeta)) || bytes.Count(params, []byte("meta")) != 1 {
		return nil, false
	}
	rest := params[len(leadingMeta):]
	end := plainObjectEnd(rest)
	if end < 0 || bytes.Contains(rest[:end], []byte("progressToken")) {
		return nil, false
	}
	out := make([]byte, 0, len(params)+len(`"progressToken":,`)+20)
	out = append(out, leadingMeta...)
	out = append(out, `"progressToken":`...)
	out = strconv.AppendInt(out, token, 10)
	if len(bytes.TrimSpace(rest[:end])) > 0 {
		out = append(out, ',')
	}
	return append(out, rest...), true
}

// plainObjectEnd returns the index in b of the '}' that closes the object
// whose members b begins with (its '{' already read), or -1 if a
// backslash comes first. b must be valid JSON from there on.
func plainObjectEnd(b []byte) int {
	depth, inString := 0, false
	for i, c := range b {
		switch {
		case c == '\\':
			return -1
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// tokenInParamsRoom puts the progress token into params made with room
// for it (a *jsonenc.Roomy, or a *latecheck.Params with Room), as long as
// raw, what Call is about to send, is still those params: a
// PrepareRequest hook may have given others. ok false: withProgressToken's
// turn.
func tokenInParamsRoom(params any, raw json.RawMessage, token int64) (json.RawMessage, bool) {
	var room jsonenc.Roomy
	switch p := params.(type) {
	case *jsonenc.Roomy:
		room = *p
	case *latecheck.Params:
		room = p.Room
	}
	if len(room) <= jsonenc.TokenRoom || len(raw) != len(room)-jsonenc.TokenRoom || &raw[0] != &room[jsonenc.TokenRoom] {
		return nil, false
	}
	return tokenInRoom(room, len(raw), token)
}

// tokenInRoom puts the progress token member in front of the params that
// end room (the last n bytes: an object without "_meta", see
// jsonenc.Roomy), writing it into the spare bytes before them and over
// their '{', and returns the params it makes, a tail of room. ok is false,
// and nothing written, when room breaks that contract.
func tokenInRoom(room []byte, n int, token int64) (params json.RawMessage, ok bool) {
	start := len(room) - n // where the params' '{' is
	if start < jsonenc.TokenRoom || n < 2 || room[start] != '{' {
		return nil, false
	}
	var head [jsonenc.TokenRoom]byte
	h := appendTokenMember(head[:0], token)
	if room[start+1] != '}' {
		h = append(h, ',')
	}
	start += 1 - len(h) // h ends where the params' first member begins
	copy(room[start:], h)
	return room[start:], true
}

// appendTokenMember appends the start of an object holding the progress
// token, `{"_meta":{"progressToken":N}`, built in place so that adding a
// token costs one allocation.
func appendTokenMember(dst []byte, token int64) []byte {
	dst = append(dst, tokenMemberPrefix...)
	dst = strconv.AppendInt(dst, token, 10)
	return append(dst, '}')
}

// progressParams are the params of notifications/progress.
type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      *float64        `json:"progress"`
	Total         *float64        `json:"total"`
	Message       string          `json:"message"`
}

func parseProgress(raw json.RawMessage) (ID, Progress, error) {
	var p progressParams
	if len(raw) == 0 {
		return ID{}, Progress{}, errors.New("no params")
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return ID{}, Progress{}, fmt.Errorf("params are malformed: %s", syntaxReason(err))
	}
	token, err := parseID(p.ProgressToken)
	if err != nil {
		return ID{}, Progress{}, fmt.Errorf("progressToken: %w", err)
	}
	if !token.IsValid() {
		return ID{}, Progress{}, errors.New("no progressToken")
	}
	if p.Progress == nil {
		return ID{}, Progress{}, errors.New(`no "progress" value`)
	}
	return token, Progress{Progress: *p.Progress, Total: p.Total, Message: p.Message, Raw: raw}, nil
}

// routeProgress passes a progress notification to the call whose token it
// carries and moves that call's deadline: to now plus the call's timeout,
// never past the ceiling. Progress for other tokens is not ours (or is for
// a call that already ended) and is left to the subscribers. It reports
// whether the call holds the turn to read.
func (c *Conn) routeProgress(n *Notification) (woke bool) {
	token, prog, err := parseProgress(n.Params)
	if err != nil {
		c.report(fmt.Errorf("jsonrpc: the peer sent an unreadable %s (%v): params %s", MethodProgress, err, excerpt(n.Params)))
		return false
	}
	id, ok := token.Int64()
	if !ok {
		return false
	}
	now := time.Now()
	c.update(func(s *inFlight) {
		p := s.calls.get(id)
		if p == nil || p.onProgress == nil {
			return
		}
		p.addProgressLocked(s, prog, c.queueLimits)
		p.pushDeadlineLocked(now)
		select {
		case p.signal <- struct{}{}:
		default:
		}
		woke = p == s.turnCall
	})
	return woke
}

// addProgressLocked queues progress for the call's OnProgress, within
// limits: a caller busy in a slow OnProgress while the peer floods
// progress loses the older half of what waits (counted as dropped), never
// the newest. Conn.mu is held.
func (p *pendingCall) addProgressLocked(s *inFlight, prog Progress, limits QueueLimits) {
	p.progress = append(p.progress, prog)
	p.progressBytes += noteSize("", prog.Raw)
	if len(p.progress) <= limits.Length && p.progressBytes <= limits.Bytes {
		return
	}
	k := len(p.progress) / 2
	for _, old := range p.progress[:k] {
		p.progressBytes -= noteSize("", old.Raw)
	}
	p.progress = slices.Delete(p.progress, 0, k)
	s.notes().dropped(k)
}

// pushDeadlineLocked moves the deadline of a call with an idle deadline
// (one with OnProgress) to now plus its timeout, never past its ceiling:
// the peer showed that it is still at work on it. Conn.mu is held.
func (p *pendingCall) pushDeadlineLocked(now time.Time) {
	if p.onProgress == nil || p.timeout <= 0 {
		return
	}
	next := now.Add(p.timeout)
	if !p.ceiling.IsZero() && next.After(p.ceiling) {
		next = p.ceiling
	}
	if next.After(p.deadline) {
		p.deadline = next
	}
}

// pushIdleDeadlinesLocked treats a request of the peer as activity on
// every call with an idle deadline: MCP does not say which call a server's
// sampling, elicitation or roots request serves, and a tool that asks a
// person a question through the client is not idle while it waits for
// the answer. Conn.mu is held; this runs per request of the peer, never
// per call.
func (s *inFlight) pushIdleDeadlinesLocked(now time.Time) {
	s.calls.each(func(_ int64, p *pendingCall) { p.pushDeadlineLocked(now) })
}

// methodPing is MCP's keep-alive request, which pushes no call's deadline.
const methodPing = "ping"

// runProgress passes progress to the caller's callback, on the caller's
// goroutine. If the callback panics, the call is given up before the
// panic goes on up the caller's stack.
func (c *Conn) runProgress(p *pendingCall, items []Progress) {
	ok := false
	defer func() {
		if !ok {
			c.giveUp(p, &callError{reason: "the caller failed"})
		}
	}()
	for _, it := range items {
		p.onProgress(it)
	}
	ok = true
}
