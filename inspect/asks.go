package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// maxAsks bounds the questions waiting for the person: a server that asks
// faster than anyone answers gets the rest refused, not queued forever.
const maxAsks = 100

// ask is one question waiting for the person, as the page sees it.
type ask struct {
	ID     int64     `json:"id"`
	Server string    `json:"server"`
	Kind   string    `json:"kind"` // sampling, elicitation, elicitation-url
	Era    string    `json:"era"`  // how it came: a server request, or an input_required round
	Asked  time.Time `json:"asked"`
	Params any       `json:"params"`

	answer chan askAnswer
}

// askAnswer is the person's answer: a result to send, or an error.
type askAnswer struct {
	result json.RawMessage
	err    error
}

// ask puts a question to the page and waits for the answer, decoded into
// res, until ctx ends (the server cancelled, the call ended, the
// inspector closed).
func (a *Hooks) ask(ctx context.Context, kind string, params any, res any) error {
	q := &ask{Kind: kind, Params: params, Asked: time.Now(), Era: "server request", answer: make(chan askAnswer, 1)}
	if o, ok := mcp.OriginOf(ctx); ok {
		q.Server = o.Server
		if o.Client != nil && o.Client.Modern() {
			q.Era = "input_required (MRTR)"
		}
	}
	a.mu.Lock()
	if len(a.pending) >= maxAsks {
		a.mu.Unlock()
		return fmt.Errorf("%d questions already wait for an answer in the inspector", maxAsks)
	}
	a.next++
	q.ID = a.next
	a.pending = append(a.pending, q)
	a.mu.Unlock()
	a.changed()
	defer func() {
		a.mu.Lock()
		a.pending = slices.DeleteFunc(a.pending, func(p *ask) bool { return p == q })
		a.mu.Unlock()
		a.changed()
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case ans := <-q.answer:
		if ans.err != nil {
			return ans.err
		}
		return json.Unmarshal(ans.result, res)
	}
}

// changed tells the page that the questions changed.
func (a *Hooks) changed() {
	a.mu.Lock()
	fn := a.notify
	a.mu.Unlock()
	if fn != nil {
		fn()
	}
}

func (a *Hooks) setNotify(fn func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notify = fn
}

// snapshot is the JSON of the questions waiting, oldest first.
func (a *Hooks) snapshot() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, err := json.Marshal(nonNil(a.pending))
	if err != nil {
		return []byte("[]")
	}
	return b
}

// answerIn is the page's answer to question ID. Action is accept,
// decline or cancel (elicitation), or accept or reject (sampling); Result
// is the accepted sampling result or the form's content.
type answerIn struct {
	ID      int64           `json:"id"`
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content"`
	Result  json.RawMessage `json:"result"`
}

// resolve turns the page's answer into what the handler returns; the
// question is answered once, and a malformed answer (a form's content its
// requestedSchema refuses too) leaves it waiting.
func (a *Hooks) resolve(in answerIn) error {
	a.mu.Lock()
	i := slices.IndexFunc(a.pending, func(p *ask) bool { return p.ID == in.ID })
	if i < 0 {
		a.mu.Unlock()
		return fmt.Errorf("%w: question %d is no longer waiting (answered, or the server gave up)", errGone, in.ID)
	}
	q := a.pending[i]
	a.mu.Unlock()
	ans, err := answerFor(q, in)
	if err != nil {
		return err
	}
	select {
	case q.answer <- ans:
		return nil
	default:
		return fmt.Errorf("%w: question %d was answered already", errGone, in.ID)
	}
}

var errGone = errors.New("gone")

// answerFor checks the page's answer against the question: its kind,
// and for an accepted form, the form's requestedSchema.
func answerFor(q *ask, in answerIn) (askAnswer, error) {
	kind := q.Kind
	switch {
	case kind == "sampling" && in.Action == "reject":
		return askAnswer{err: mcp.ErrSamplingRejected}, nil
	case kind == "sampling" && in.Action == "accept":
		var res mcp.CreateMessageResult
		if err := json.Unmarshal(in.Result, &res); err != nil {
			return askAnswer{}, fmt.Errorf("the sampling result: %w", err)
		}
		if len(res.Content) == 0 || res.Model == "" {
			return askAnswer{}, errors.New("the sampling result needs content and a model name")
		}
		b, _ := json.Marshal(res)
		return askAnswer{result: b}, nil
	case kind == "sampling":
		return askAnswer{}, fmt.Errorf("a sampling request is accepted or rejected, not %q", in.Action)
	}
	res := mcp.ElicitResult{Action: in.Action}
	switch in.Action {
	case mcp.ElicitAccept:
		if kind == "elicitation" {
			if err := json.Unmarshal(in.Content, &res.Content); err != nil || res.Content == nil {
				return askAnswer{}, errors.New("an accepted form needs its content as a JSON object")
			}
			if req, ok := q.Params.(*mcp.ElicitRequest); ok {
				if err := checkForm(req.RequestedSchema, res.Content); err != nil {
					return askAnswer{}, err
				}
			}
		}
	case mcp.ElicitDecline, mcp.ElicitCancel:
	default:
		return askAnswer{}, fmt.Errorf("an elicitation is accepted, declined or cancelled, not %q", in.Action)
	}
	b, _ := json.Marshal(res)
	return askAnswer{result: b}, nil
}

// setRoots replaces the roots the page gives; each must be a file:// URI.
func (a *Hooks) setRoots(roots []mcp.Root) error {
	for i, r := range roots {
		if !strings.HasPrefix(r.URI, "file://") {
			return fmt.Errorf("root %d: %q is not a file:// URI", i+1, r.URI)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.roots = slices.Clone(roots)
	return nil
}

func (a *Hooks) rootsJSON() []mcp.Root {
	a.mu.Lock()
	defer a.mu.Unlock()
	return nonNil(slices.Clone(a.roots))
}

// askRoutes are the page's answers and roots.
func (s *Server) askRoutes(mux *apiMux) {
	mux.HandleFunc("POST /api/answer", func(w http.ResponseWriter, r *http.Request) {
		var in answerIn
		if err := decodeBody(r, &in); err != nil {
			s.fail(w, err)
			return
		}
		if err := s.opts.Hooks.resolve(in); err != nil {
			var fe *formError
			switch {
			case errors.Is(err, errGone):
				s.writeError(w, http.StatusNotFound, err)
			case errors.As(err, &fe):
				// Each field apart, for the page to mark it in the form.
				fields := make([]fieldProblem, len(fe.Fields))
				for i, f := range fe.Fields {
					fields[i] = fieldProblem{Field: s.opts.Redact(f.Field), Problem: s.opts.Redact(f.Problem)}
				}
				writeJSON(w, http.StatusBadRequest, map[string]any{"error": s.opts.Redact(err.Error()), "fields": fields})
			default:
				s.writeError(w, http.StatusBadRequest, err)
			}
			return
		}
		writeJSON(w, http.StatusOK, struct{}{})
	})
	mux.HandleFunc("GET /api/roots", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.opts.Hooks.rootsJSON())
	})
	mux.HandleFunc("POST /api/roots", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Roots []mcp.Root `json:"roots"`
		}
		if err := decodeBody(r, &in); err != nil {
			s.fail(w, err)
			return
		}
		if err := s.opts.Hooks.setRoots(in.Roots); err != nil {
			s.writeError(w, http.StatusBadRequest, err)
			return
		}
		// Tell every connected server, so that it asks again.
		var failed []string
		for _, st := range s.opts.Servers.List() {
			if st.State != "connected" {
				continue
			}
			ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
			c, err := s.opts.Servers.Client(ctx, st.Name)
			if err == nil {
				err = c.NotifyRootsChanged(ctx)
			}
			cancel()
			if err != nil {
				failed = append(failed, st.Name+": "+s.opts.Redact(err.Error()))
			}
		}
		writeJSON(w, http.StatusOK, map[string][]string{"failed": nonNil(failed)})
	})
}
