package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Multi round-trip requests (MRTR). In the modern era a server never sends
// requests to the client: a handler that needs input ends its request with
// {resultType: "input_required", inputRequests, requestState}, and the
// client retries the request with inputResponses and the echoed state.
//
// mcptest maps its script API onto this by replay: a handler's calls to
// Session.Elicit, CreateMessage, ListRoots (and Call with those methods)
// are numbered in order. When the answer to a call is known (from this
// retry's inputResponses or from the state of earlier rounds, under its
// number, or under another when the handler asks in another order this
// time: answers go by what was asked) the call returns it; otherwise the call fails with ErrInputRequired, and whatever
// the handler then returns is replaced by an input_required result asking
// for every call that had no answer. The retry runs the handler again from
// the start. So one deterministic handler serves both eras unchanged.

// ErrInputRequired is what a server→client call returns, in the modern era,
// when the client has not answered it yet: the request ends with an
// input_required result and the handler runs again on the client's retry.
// Handlers may return it (or anything else): their result is discarded.
var ErrInputRequired = errors.New("mcptest: the client's input is required (the request ends with input_required and is retried)")

// inputCapability is the client capability each input request needs.
var inputCapability = map[string]string{
	"elicitation/create":     "elicitation",
	"sampling/createMessage": "sampling",
	"roots/list":             "roots",
}

// inputRound is one run of a handler that may ask for input.
type inputRound struct {
	caps map[string]json.RawMessage

	mu      sync.Mutex
	answers map[string]json.RawMessage // by key, from every earlier round
	// questions holds, by key, a digest of what each key asked (method and
	// params), from every round: a handler that asks in another order on a
	// retry (a proxy's upstream that kept an earlier answer) gets each
	// answer to the question it answers, not to the one in its position.
	questions map[string]string
	used      map[string]bool // answers handed out this round
	next      int
	asked     map[string]inputRequest
	missing   string // a capability the client lacks
}

// questionDigest identifies a question by its method and params.
func questionDigest(method string, params json.RawMessage) string {
	sum := sha256.Sum256(append([]byte(method+"\n"), params...))
	return hex.EncodeToString(sum[:16])
}

// answerFor returns the answer to the question asked at key (by position)
// or, when that key answered another question, the unused answer of an
// earlier round to the same question.
func (r *inputRound) answerFor(key, digest string) (json.RawMessage, bool) {
	if ans, ok := r.answers[key]; ok && !r.used[key] {
		// A state from before questions were recorded matches by position.
		if q, recorded := r.questions[key]; !recorded || q == digest {
			r.used[key] = true
			return ans, true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(r.answers)) {
		if !r.used[k] && r.questions[k] == digest {
			r.used[k] = true
			return r.answers[k], true
		}
	}
	return nil, false
}

// free reports whether a new question may be asked under key: no earlier
// round answered it or asked another question under it.
func (r *inputRound) free(key, digest string) bool {
	_, answered := r.answers[key]
	_, asked := r.asked[key]
	q, recorded := r.questions[key]
	return !answered && !asked && (!recorded || q == digest)
}

type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// call is Session.Call for a modern request.
func (r *inputRound) call(method string, params any) (json.RawMessage, error) {
	capName, ok := inputCapability[method]
	if !ok {
		return nil, fmt.Errorf("mcptest: %s cannot be sent to the client in the %s era (only elicitation/create, sampling/createMessage and roots/list travel as input requests)", method, ModernProtocolVersion)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if string(raw) == "null" {
		raw = nil
	}
	digest := questionDigest(method, raw)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	key := "mcptest-" + strconv.Itoa(r.next)
	if ans, ok := r.answerFor(key, digest); ok {
		return ans, nil
	}
	if _, declared := r.caps[capName]; !declared {
		if r.missing == "" {
			r.missing = capName
		}
		return nil, fmt.Errorf("mcptest: %s needs the client capability %q, which the request did not declare", method, capName)
	}
	for !r.free(key, digest) {
		r.next++
		key = "mcptest-" + strconv.Itoa(r.next)
	}
	r.questions[key] = digest
	r.asked[key] = inputRequest{Method: method, Params: raw}
	return nil, ErrInputRequired
}

// requestState is what mcptest keeps in requestState between rounds. It is
// base64url JSON: a test server needs no secrecy, but a client must treat
// it as opaque, and the server checks it belongs to the retried request.
type requestState struct {
	Method  string                     `json:"method"`
	Name    string                     `json:"name"`
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
	Pending []string                   `json:"pending,omitempty"`
	// Questions are the digests of what each key asked.
	Questions map[string]string `json:"questions,omitempty"`
}

func encodeRequestState(st requestState) string {
	b, _ := json.Marshal(st)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeRequestState reads a requestState the client echoed; the client
// is not trusted, so anything that is not a state of this request is an
// error.
func decodeRequestState(s, method, name string) (requestState, error) {
	var st requestState
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return st, fmt.Errorf("requestState is not base64url: %v", err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("requestState is not mcptest's: %v", err)
	}
	if st.Method != method || st.Name != name {
		return st, fmt.Errorf("requestState belongs to %s %q, not to %s %q", st.Method, st.Name, method, name)
	}
	return st, nil
}

// ShedLoad makes the next n modern tools/call, prompts/get or
// resources/read requests answer input_required with an empty
// inputRequests and a requestState, as a server shedding load does; the
// client's retry (with the state) is served normally.
func (s *Server) ShedLoad(n int) {
	s.modern.mu.Lock()
	s.modern.shed += n
	s.modern.mu.Unlock()
}

func (s *Server) takeShed() bool {
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	if s.modern.shed == 0 {
		return false
	}
	s.modern.shed--
	return true
}

// serveWithInput runs a method that may ask for input (tools/call,
// prompts/get, resources/read) as one round of MRTR.
func (ss *Session) serveWithInput(ctx context.Context, mc *modernCall, req *jsonrpc.Request) (any, error) {
	var p struct {
		Name           string                     `json:"name"`
		URI            string                     `json:"uri"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   *string                    `json:"requestState"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	name := p.Name
	if req.Method == "resources/read" {
		name = p.URI
	}
	round := &inputRound{answers: map[string]json.RawMessage{}, questions: map[string]string{}, used: map[string]bool{}, asked: map[string]inputRequest{}}
	_ = json.Unmarshal(mc.meta.ClientCapabilities, &round.caps)
	if p.RequestState != nil {
		st, err := decodeRequestState(*p.RequestState, req.Method, name)
		if err != nil {
			return nil, invalidParams("%s: %v", req.Method, err)
		}
		maps.Copy(round.answers, st.Answers)
		maps.Copy(round.questions, st.Questions)
		for _, key := range st.Pending {
			if ans, ok := p.InputResponses[key]; ok {
				round.answers[key] = ans
			}
		}
	} else if ss.srv.takeShed() {
		return map[string]any{
			"resultType":    "input_required",
			"inputRequests": map[string]any{},
			"requestState":  encodeRequestState(requestState{Method: req.Method, Name: name}),
		}, nil
	}
	mc.round = round
	result, err := ss.handle(ctx, req)

	round.mu.Lock()
	defer round.mu.Unlock()
	if round.missing != "" {
		e := jsonrpc.NewError(CodeMissingClientCapability, fmt.Sprintf("%s %q needs the client capability %q", req.Method, name, round.missing))
		e.Data, _ = json.Marshal(map[string]any{"requiredCapabilities": map[string]any{round.missing: struct{}{}}})
		return nil, e
	}
	if len(round.asked) == 0 {
		return result, err
	}
	st := requestState{Method: req.Method, Name: name, Answers: round.answers, Pending: slices.Sorted(maps.Keys(round.asked)), Questions: round.questions}
	return map[string]any{
		"resultType":    "input_required",
		"inputRequests": round.asked,
		"requestState":  encodeRequestState(st),
	}, nil
}

// ModernDeclares reports whether ctx serves a 2026-07-28 request, and if
// so what that request declared of the client capability capName (nil
// when it did not declare it), so that a handler can check the
// capability's own members too (elicitation's url mode). A handler that
// asks the client only when it can (a gateway relaying an upstream's
// optional roots/list) checks first: Session.Call for an undeclared
// capability fails the whole request with CodeMissingClientCapability.
func ModernDeclares(ctx context.Context, capName string) (modern bool, declared json.RawMessage) {
	mc := modernFrom(ctx)
	if mc == nil || mc.round == nil {
		return mc != nil, nil
	}
	v, ok := mc.round.caps[capName]
	if ok && v == nil {
		v = json.RawMessage(`{}`) // declared, with nothing in it
	}
	return true, v
}
