package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// taskCall is a task-augmented tools/call of tool.
func taskCall(tool string) map[string]any {
	return map[string]any{"name": tool, "arguments": map[string]any{}, "task": map[string]any{}}
}

// taskIDOf reads the task a task-augmented call created.
func taskIDOf(t *testing.T, res json.RawMessage) string {
	t.Helper()
	var r struct {
		Task struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.Task.TaskID == "" {
		t.Fatalf("not a created task: %s (%v)", res, err)
	}
	return r.Task.TaskID
}

// A task answers its call at once and runs on, so the bound on requests
// in flight does not hold it: the tasks a session has working are bound
// by MaxInFlight of their own. Past it a task-augmented call gets the
// busy error and runs nothing; once a task ends, another may start.
func TestSessionBoundsWorkingTasks(t *testing.T) {
	const bound = 2
	s := NewServer(&Options{NoRecord: true, MaxInFlight: bound})
	defer s.Close()
	started, release := make(chan struct{}, 8), make(chan struct{})
	s.AddTaskTool(Tool{Name: "hold"}, TaskRequired, func(ctx context.Context, _ *ToolRequest) (*ToolResult, error) {
		started <- struct{}{}
		select {
		case <-release:
			return TextResult("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	c := initialized(t, s)
	var ids []string
	for range bound {
		ids = append(ids, taskIDOf(t, c.call("tools/call", taskCall("hold"))))
		<-started
	}
	e := c.callErr("tools/call", taskCall("hold"))
	if e.Code != CodeServerBusy || !strings.Contains(e.Message, "2 tasks already working on this session") {
		t.Fatalf("a task past the bound: %v, want the busy error", e)
	}
	select {
	case <-started:
		t.Fatal("the task past the bound ran")
	default:
	}
	release <- struct{}{}
	c.call("tasks/result", map[string]any{"taskId": ids[0]}) // ended
	taskIDOf(t, c.call("tools/call", taskCall("hold")))
	<-started
	close(release)
}

// A session keeps at most maxKeptTasks of its ended tasks, dropping the
// oldest: a long session of task-augmented calls held every task it ever
// ran, and tasks/list returned them all.
func TestSessionKeepsABoundedNumberOfEndedTasks(t *testing.T) {
	s := NewServer(&Options{NoRecord: true})
	defer s.Close()
	s.AddTaskTool(Tool{Name: "quick"}, TaskRequired, func(context.Context, *ToolRequest) (*ToolResult, error) {
		return TextResult("done"), nil
	})
	c := initialized(t, s)
	var first string
	for i := range maxKeptTasks + 10 {
		id := taskIDOf(t, c.call("tools/call", taskCall("quick")))
		c.call("tasks/result", map[string]any{"taskId": id})
		if i == 0 {
			first = id
		}
	}
	var list struct {
		Tasks []json.RawMessage `json:"tasks"`
	}
	if err := json.Unmarshal(c.call("tasks/list", nil), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Tasks) > maxKeptTasks {
		t.Errorf("tasks/list holds %d ended tasks, want at most %d", len(list.Tasks), maxKeptTasks)
	}
	if e := c.callErr("tasks/get", map[string]any{"taskId": first}); !strings.Contains(e.Message, "no task") {
		t.Errorf("the oldest ended task is still known: %v", e)
	}
}
