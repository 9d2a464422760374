package inspect

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// maxProblems bounds the problems kept per server.
const maxProblems = 50

// Hooks are what the inspector adds to each client's options (Apply):
// handlers that answer the servers' questions (sampling, form and URL
// elicitation) from the page, holding each until the person answers, and
// the roots the page gives, through the library's handlers, so they work
// the same in both eras: in the initialize era the server's request waits
// for the answer; in the stateless era (MRTR) the client holds each
// input_required round until every one of its requests is answered. They
// also keep the problems a client meets that are no call's (a frame that
// is not JSON-RPC), for the server's report. Create them before
// connecting and give them to New as Options.Hooks. Safe for concurrent
// use.
type Hooks struct {
	mu       sync.Mutex
	next     int64
	pending  []*ask
	roots    []mcp.Root
	notify   func()
	problems map[string][]problem
}

// problem is one error a client met outside any call.
type problem struct {
	Time time.Time
	Err  string
}

// NewHooks returns hooks with no roots given.
func NewHooks() *Hooks { return &Hooks{problems: map[string][]problem{}} }

// Apply sets opts' sampling, elicitation (both modes) and roots handlers
// to ask the page, so that the client declares those capabilities. When
// opts.ServerName is set, the client's ErrorHook also keeps its problems
// for the report (after the hook already there); the manager's template
// has none, and the manager's Warning events bring them instead.
func (a *Hooks) Apply(opts *mcp.ClientOptions) {
	opts.Sampling = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		var res mcp.CreateMessageResult
		if err := a.ask(ctx, "sampling", req, &res); err != nil {
			return nil, err
		}
		return &res, nil
	}
	elicit := func(kind string) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			var res mcp.ElicitResult
			if err := a.ask(ctx, kind, req, &res); err != nil {
				return nil, err
			}
			return &res, nil
		}
	}
	opts.Elicitation = elicit("elicitation")
	opts.ElicitationURL = elicit("elicitation-url")
	opts.Roots = func(context.Context) ([]mcp.Root, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		return slices.Clone(a.roots), nil
	}
	if name := opts.ServerName; name != "" {
		next := opts.ErrorHook
		opts.ErrorHook = func(err error) {
			a.addProblem(name, err)
			if next != nil {
				next(err)
			}
		}
	}
}

// addProblem keeps err as one of server's latest problems.
func (a *Hooks) addProblem(server string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.problems == nil {
		a.problems = map[string][]problem{}
	}
	list := append(a.problems[server], problem{Time: time.Now(), Err: err.Error()})
	if len(list) > maxProblems {
		list = slices.Delete(list, 0, len(list)-maxProblems)
	}
	a.problems[server] = list
}

// problemsOf returns server's latest problems, oldest first.
func (a *Hooks) problemsOf(server string) []problem {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.problems[server])
}
