package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Task methods (2025-11-25).
const (
	MethodTasksGet    = "tasks/get"
	MethodTasksResult = "tasks/result"
	MethodTasksList   = "tasks/list"
	MethodTasksCancel = "tasks/cancel"
)

// DefaultTaskPollInterval is the wait between two tasks/get while a task
// runs, when the server suggests none. notifications/tasks/status cut the
// wait short.
const DefaultTaskPollInterval = time.Second

// maxTaskPollInterval bounds the server's pollInterval: a value of years
// would leave a task unwatched for as long, and one past about 292 years
// overflows a time.Duration into a negative wait, which polled at once,
// in a loop.
const maxTaskPollInterval = time.Minute

// TaskOptions adjust StartToolTask. A nil *TaskOptions means the defaults.
type TaskOptions struct {
	// TTL asks the server to keep the task (and its result) that long
	// after its creation; zero leaves it to the server.
	TTL time.Duration
	// Meta is sent as params._meta.
	Meta map[string]any
}

type taskParams struct {
	TTL *int64 `json:"ttl,omitempty"`
}

type taskToolParams struct {
	callToolParams
	Task taskParams `json:"task"`
}

type taskIDParams struct {
	TaskID string `json:"taskId"`
}

type createTaskResult struct {
	Task *Task `json:"task"`
}

// ListTasksResult is one page of tasks/list.
type ListTasksResult struct {
	Tasks      []Task `json:"tasks"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// supportsToolTasks reports whether the server declared
// tasks.requests.tools.call, without which tools are never run as tasks.
func (c *Client) supportsToolTasks() bool {
	t := c.init.Capabilities.Tasks
	return t != nil && t.Requests != nil && t.Requests.Tools != nil && t.Requests.Tools.Call != nil
}

// StartToolTask calls the named tool as a task (2025-11-25) and returns
// the task as the server created it, without waiting for it: follow it
// with GetTask or WaitTask, fetch its outcome with ToolTaskResult, end it
// with CancelTask. It fails when the server did not declare task-augmented
// tools/call.
func (c *Client) StartToolTask(ctx context.Context, name string, args any, opts *TaskOptions) (*Task, error) {
	if name == "" {
		return nil, errors.New("mcp: tools/call: the tool name is empty")
	}
	if !c.supportsToolTasks() {
		return nil, &unsupportedError{method: fmt.Sprintf("tools/call %q as a task", clip(name)), lacks: "tasks.requests.tools.call"}
	}
	p := taskToolParams{callToolParams: callToolParams{Name: name}}
	if args != nil {
		raw, err := encodeArguments(args)
		if err != nil {
			return nil, fmt.Errorf("mcp: tools/call %q: %w", name, err)
		}
		p.Arguments = raw
	}
	if opts != nil {
		p.Meta = opts.Meta
		if opts.TTL > 0 {
			ms := opts.TTL.Milliseconds()
			p.Task.TTL = &ms
		}
	}
	var res createTaskResult
	if err := c.call(ctx, MethodToolsCall, p, nil, &res); err != nil {
		return nil, err
	}
	if res.Task == nil || res.Task.TaskID == "" {
		return nil, fmt.Errorf("mcp: tools/call %q as a task: the result has no task with a taskId", clip(name))
	}
	return res.Task, nil
}

// GetTask asks for the task's current state (tasks/get).
func (c *Client) GetTask(ctx context.Context, id string) (*Task, error) {
	return c.taskCall(ctx, MethodTasksGet, id)
}

// taskCall sends a tasks/ request about one task and decodes the task.
func (c *Client) taskCall(ctx context.Context, method, id string) (*Task, error) {
	var t Task
	if err := c.call(ctx, method, taskIDParams{id}, nil, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// CancelTask asks the server to cancel the task (tasks/cancel) and returns
// its state; a task that already ended is answered with an error.
func (c *Client) CancelTask(ctx context.Context, id string) (*Task, error) {
	return c.taskCall(ctx, MethodTasksCancel, id)
}

// ListTasksPage fetches one page of tasks/list ("" for the first).
func (c *Client) ListTasksPage(ctx context.Context, cursor string) (*ListTasksResult, error) {
	var res ListTasksResult
	if err := c.call(ctx, MethodTasksList, cursorParams(cursor), nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ListTasks returns every task, following nextCursor to the end.
func (c *Client) ListTasks(ctx context.Context) ([]Task, error) {
	return listAll(ctx, MethodTasksList, func(ctx context.Context, cursor string) ([]Task, string, error) {
		page, err := c.ListTasksPage(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return page.Tasks, page.NextCursor, nil
	})
}

// ToolTaskResult returns the outcome of a tool task (tasks/result): the
// tool's result, or the error the call ended with. The server holds the
// answer back until the task ended, so call it after WaitTask (its
// deadline is a protocol request's).
func (c *Client) ToolTaskResult(ctx context.Context, id string) (*CallToolResult, error) {
	var res CallToolResult
	// tasks/result waits for the task to end, and while it needs input the
	// server asks its questions (elicitation, sampling) on this request:
	// it gets a tool call's deadline policy, which those questions and
	// progress push forward, not a protocol request's.
	opts := c.toolCallOptions(ctx, nil)
	if err := c.call(ctx, MethodTasksResult, taskIDParams{id}, &opts, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// WaitTask waits until the task reached a terminal status, or needs input
// (TaskInputRequired), and returns its last state. A task that needs input
// waits for the client to call ToolTaskResult, on which the server asks
// its questions, answered by the client's handlers (elicitation,
// sampling), and which returns the result once the task is done. It asks
// with tasks/get at the server's pollInterval (DefaultTaskPollInterval
// when it gives none, at least once a minute whatever it gives) and at once on each notifications/tasks/status for
// the task. It returns ctx's error when ctx ends first; the task goes on
// (see CancelTask).
func (c *Client) WaitTask(ctx context.Context, id string) (*Task, error) {
	w := c.taskState()
	wake := w.watch(id)
	defer w.unwatch(id, wake)
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		t, err := c.GetTask(ctx, id)
		if err != nil {
			return nil, err
		}
		if t.Terminal() || t.Status == TaskInputRequired {
			return t, nil
		}
		wait := DefaultTaskPollInterval
		if t.PollInterval != nil && *t.PollInterval > 0 {
			// Compared in milliseconds, before the product can overflow.
			wait = maxTaskPollInterval
			if *t.PollInterval < maxTaskPollInterval.Milliseconds() {
				wait = time.Duration(*t.PollInterval) * time.Millisecond
			}
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-wake:
		case <-timer.C:
		case <-ctx.Done():
			return nil, fmt.Errorf("mcp: waiting for task %q: %w", clip(id), context.Cause(ctx))
		}
	}
}

// callToolAsTask is CallTool for a tool that must run as a task: start
// it, wait under the call's cap, return its result. When ctx ends or the
// cap passes first, the task is cancelled (bounded, in the caller's
// goroutine) and the error says which.
func (c *Client) callToolAsTask(ctx context.Context, name string, args any, opts *CallOptions) (*CallToolResult, error) {
	var topts *TaskOptions
	if opts != nil {
		topts = &TaskOptions{Meta: opts.Meta}
	}
	// The creation is not abandoned when ctx ends: a task created for a
	// caller who left could never be cancelled, as its id would be lost.
	// The request's own deadline still bounds it.
	task, err := c.StartToolTask(context.WithoutCancel(ctx), name, args, topts)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		c.cancelTaskQuietly(ctx, task.TaskID)
		return nil, fmt.Errorf("mcp: tools/call %q: %w", clip(name), context.Cause(ctx))
	}
	waitCtx := ctx
	copts := c.toolCallOptions(ctx, opts)
	capped := copts.MaxTimeout > 0
	if capped {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeoutCause(ctx, copts.MaxTimeout, jsonrpc.ErrTimeout)
		defer cancel()
	}
	final, err := c.WaitTask(waitCtx, task.TaskID)
	if err != nil {
		if waitCtx.Err() != nil {
			c.cancelTaskQuietly(ctx, task.TaskID)
			if ctx.Err() == nil {
				return nil, fmt.Errorf("mcp: tools/call %q: task %q timed out after %v and was cancelled: %w", clip(name), clip(task.TaskID), copts.MaxTimeout, jsonrpc.ErrTimeout)
			}
		}
		return nil, err
	}
	// A task that needs input gets it through tasks/result, which then
	// waits for the end under the same cap.
	res, err := c.ToolTaskResult(waitCtx, final.TaskID)
	if err != nil {
		if final.Status == TaskInputRequired && waitCtx.Err() != nil {
			c.cancelTaskQuietly(ctx, task.TaskID)
		}
		return nil, err
	}
	if err := c.tools.Load().check(name, res, c.report); err != nil {
		return res, err
	}
	return res, nil
}

// cancelTaskQuietly sends tasks/cancel after the caller gave up, bounded
// like the engine's notifications/cancelled; a failure goes to the
// ErrorHook.
func (c *Client) cancelTaskQuietly(ctx context.Context, id string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), jsonrpc.DefaultCancelTimeout)
	defer cancel()
	if _, err := c.CancelTask(cctx, id); err != nil {
		c.report(wrapf(err, "cancelling task %q after its caller gave up", clip(id)))
	}
}

// taskState returns the session's taskWatchers, made on first use.
func (c *Client) taskState() *taskWatchers { return madeOnUse(&c.tasks) }

// taskWatchers wake WaitTask on notifications/tasks/status.
type taskWatchers struct {
	mu       sync.Mutex
	byID     map[string]chan struct{}
	required map[string]bool // tools listed with taskSupport "required"
	listed   bool            // a tools/list page was seen
}

func (w *taskWatchers) watch(id string) chan struct{} {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	if w.byID == nil {
		w.byID = make(map[string]chan struct{})
	}
	w.byID[id] = ch
	w.mu.Unlock()
	return ch
}

func (w *taskWatchers) unwatch(id string, ch chan struct{}) {
	w.mu.Lock()
	if w.byID[id] == ch {
		delete(w.byID, id)
	}
	w.mu.Unlock()
}

// statusArrived wakes the waiter of the task the notification is about.
func (c *Client) statusArrived(n *jsonrpc.Notification) {
	var t Task
	if !c.decodeNotification(n, &t) {
		return
	}
	w := c.tasks.Load()
	if w == nil {
		return // nothing waits on a task
	}
	w.mu.Lock()
	ch := w.byID[t.TaskID]
	w.mu.Unlock()
	if ch != nil {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// learnTaskSupport remembers which listed tools require a task.
func (w *taskWatchers) learnTaskSupport(tools []Tool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.listed = true
	for i := range tools {
		req := tools[i].Execution != nil && tools[i].Execution.TaskSupport == TaskSupportRequired
		if req {
			if w.required == nil {
				w.required = make(map[string]bool)
			}
			w.required[tools[i].Name] = true
		} else {
			delete(w.required, tools[i].Name)
		}
	}
}

func (w *taskWatchers) requiresTask(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.required[name]
}

// mustRunAsTask reports whether the named tool requires a task. On a
// server with task-augmented tools/call whose tools this client never
// listed, it lists them first: servers answer a plain call of such a
// tool in different ways (a -32601 error, or a result with isError).
func (c *Client) mustRunAsTask(ctx context.Context, name string) bool {
	if !c.supportsToolTasks() {
		return false
	}
	w := c.taskState()
	w.mu.Lock()
	listed := w.listed
	w.mu.Unlock()
	if !listed {
		if _, err := c.ListTools(ctx); err != nil {
			c.report(wrapf(err, "listing tools to learn whether %q runs as a task", clip(name)))
		}
	}
	return w.requiresTask(name)
}
