package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Task support levels for AddTaskTool (2025-11-25).
const (
	TaskOptional = "optional"
	TaskRequired = "required"
)

// taskCapabilities is what a server with task tools declares.
var taskCapabilities = map[string]any{
	"list":     struct{}{},
	"cancel":   struct{}{},
	"requests": map[string]any{"tools": map[string]any{"call": struct{}{}}},
}

// taskPollInterval is the pollInterval, in milliseconds, that the
// server suggests for its tasks.
const taskPollInterval = 50

// AddTaskTool adds a tool that runs as a task (2025-11-25) when the client
// asks for one: support is TaskOptional or TaskRequired. A task-augmented
// call answers at once with the task; h runs on, its ctx ending with the
// session or with tasks/cancel, and each change of status is sent as
// notifications/tasks/status. With TaskRequired, a plain call is answered
// -32601. The server declares tasks {list, cancel, requests.tools.call}.
func (s *Server) AddTaskTool(t Tool, support string, h ToolHandler) {
	t.Execution, _ = json.Marshal(map[string]string{"taskSupport": support})
	s.AddTool(t, h)
}

func (s *Server) hasTaskToolsLocked() bool {
	for _, e := range s.tools {
		if e.task != "" {
			return true
		}
	}
	return false
}

func executionSupport(raw json.RawMessage) string {
	var e struct {
		TaskSupport string `json:"taskSupport"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &e) != nil {
		return ""
	}
	if e.TaskSupport == TaskOptional || e.TaskSupport == TaskRequired {
		return e.TaskSupport
	}
	return ""
}

// taskTable holds a session's tasks: those working, bounded by
// Options.MaxInFlight, and at most maxKeptTasks of those ended, for
// tasks/result, tasks/get and tasks/list to find.
type taskTable struct {
	mu      sync.Mutex
	seq     int
	tasks   map[string]*serverTask
	order   []string // task ids, oldest first
	working int
}

// maxKeptTasks bounds the ended tasks a session keeps; the oldest goes
// first. A client reads a task's result soon after it ends, and a long
// session must not keep every task it ever ran.
const maxKeptTasks = 1024

// forgetEndedLocked drops the oldest ended tasks beyond maxKeptTasks.
// tt.mu is held.
func (tt *taskTable) forgetEndedLocked() {
	excess := len(tt.order) - tt.working - maxKeptTasks
	if excess <= 0 {
		return
	}
	kept := tt.order[:0]
	for _, id := range tt.order {
		if t := tt.tasks[id]; excess > 0 && t.ended() {
			delete(tt.tasks, id)
			excess--
			continue
		}
		kept = append(kept, id)
	}
	clear(tt.order[len(kept):])
	tt.order = kept
}

// serverTask is one task: its wire state, and the outcome once terminal.
type serverTask struct {
	state  taskState
	cancel context.CancelFunc
	done   chan struct{} // closed once terminal
	result any
	err    error
}

// ended says whether t is terminal.
func (t *serverTask) ended() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

type taskState struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	TTL           *int64 `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

// startTask answers a task-augmented tools/call with a new working task
// and runs the tool on the session's work.
func (ss *Session) startTask(tr *ToolRequest, h ToolHandler) (any, error) {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	ctx, cancel := context.WithCancel(ss.ctx)
	tt := &ss.tasks
	tt.mu.Lock()
	if bound := ss.srv.maxInFlight; bound > 0 && tt.working >= bound {
		tt.mu.Unlock()
		cancel()
		return nil, jsonrpc.NewError(CodeServerBusy, "server busy: "+countOf(bound, "task")+" already working on this session (its bound); send it again once one has ended")
	}
	if tt.tasks == nil {
		tt.tasks = make(map[string]*serverTask)
	}
	tt.working++
	tt.seq++
	id := "task-" + strconv.Itoa(tt.seq)
	t := &serverTask{cancel: cancel, done: make(chan struct{}),
		state: taskState{TaskID: id, Status: "working", CreatedAt: now, LastUpdatedAt: now, PollInterval: taskPollInterval}}
	tt.tasks[id] = t
	tt.order = append(tt.order, id)
	created := t.state
	tt.mu.Unlock()
	tr.progressToken = nil // the call's progress ended with its response
	if !ss.goWork(func() {
		defer cancel()
		res, err := runTool(ctx, h, tr)
		status := "completed"
		switch {
		case ctx.Err() != nil:
			status = "cancelled"
		case err != nil:
			status = "failed"
		}
		ss.finishTask(t, status, res, err)
	}) {
		cancel()
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "the session ended")
	}
	return map[string]any{"task": created}, nil
}

// finishTask makes t terminal, unless it already is, and announces it.
func (ss *Session) finishTask(t *serverTask, status string, res any, err error) {
	tt := &ss.tasks
	tt.mu.Lock()
	select {
	case <-t.done:
		tt.mu.Unlock()
		return
	default:
	}
	t.state.Status = status
	t.state.LastUpdatedAt = time.Now().UTC().Format(time.RFC3339Nano)
	t.result, t.err = res, err
	close(t.done)
	tt.working--
	tt.forgetEndedLocked()
	st := t.state
	tt.mu.Unlock()
	_ = ss.Notify(ss.ctx, "notifications/tasks/status", st)
}

func (ss *Session) findTask(req *jsonrpc.Request) (*serverTask, error) {
	var p struct {
		TaskID string `json:"taskId"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	tt := &ss.tasks
	tt.mu.Lock()
	defer tt.mu.Unlock()
	t := tt.tasks[p.TaskID]
	if t == nil {
		return nil, invalidParams("%s: no task %q", req.Method, p.TaskID)
	}
	return t, nil
}

func (ss *Session) taskMethod(method string) methodFunc {
	return func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		if method == "tasks/list" {
			tt := &ss.tasks
			tt.mu.Lock()
			list := make([]taskState, 0, len(tt.order))
			for _, id := range tt.order {
				list = append(list, tt.tasks[id].state)
			}
			tt.mu.Unlock()
			return map[string]any{"tasks": list}, nil
		}
		t, err := ss.findTask(req)
		if err != nil {
			return nil, err
		}
		switch method {
		case "tasks/get":
			return ss.taskState(t), nil
		case "tasks/cancel":
			select {
			case <-t.done:
				return nil, invalidParams("tasks/cancel: task %q is already %s", t.state.TaskID, ss.taskState(t).Status)
			default:
			}
			t.cancel()
			ss.finishTask(t, "cancelled", nil, nil)
			return ss.taskState(t), nil
		}
		// tasks/result waits for the end.
		select {
		case <-t.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if t.state.Status == "cancelled" {
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, fmt.Sprintf("task %q was cancelled", t.state.TaskID))
		}
		return t.result, t.err
	}
}

func (ss *Session) taskState(t *serverTask) taskState {
	ss.tasks.mu.Lock()
	defer ss.tasks.mu.Unlock()
	return t.state
}
