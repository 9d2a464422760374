package mcp

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// taskServer is mcptest with a tool that must run as a task: it starts,
// says so on started, and finishes when release is closed or its ctx ends.
func taskServer() (srv *mcptest.Server, started chan string, release chan struct{}) {
	srv = mcptest.NewDefault(nil)
	started = make(chan string, 4)
	release = make(chan struct{})
	srv.AddTaskTool(mcptest.Tool{Name: "research"}, mcptest.TaskRequired, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		started <- string(req.Arguments)
		select {
		case <-release:
			return mcptest.TextResult("found " + string(req.Arguments)), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	return srv, started, release
}

// CallTool runs a tool that requires a task as one and returns its result,
// whether or not the tool was listed first.
func TestCallToolRunsRequiredTasks(t *testing.T) {
	srv, started, release := taskServer()
	statuses := make(chan string, 8)
	c, _ := connectMCPTest(t, srv, &ClientOptions{
		OnTaskStatus: func(_ context.Context, tk Task) { statuses <- tk.Status },
	})
	ctx := t.Context()
	go func() {
		<-started
		close(release)
	}()
	res, err := c.CallTool(ctx, "research", map[string]string{"q": "unlisted"}, nil)
	if err != nil {
		t.Fatalf("CallTool of an unlisted task tool: %v", err)
	}
	if len(res.Content) != 1 || res.Content[0].Text != `found {"q":"unlisted"}` {
		t.Errorf("result %+v", res)
	}
	if s := <-statuses; s != TaskCompleted {
		t.Errorf("status notification %q", s)
	}

	tools, err := c.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Name == "research" && (tl.Execution == nil || tl.Execution.TaskSupport != TaskSupportRequired) {
			t.Errorf("research listed with %+v", tl.Execution)
		}
	}
	res, err = c.CallTool(ctx, "research", map[string]string{"q": "listed"}, nil)
	if err != nil || res.Content[0].Text != `found {"q":"listed"}` {
		t.Errorf("CallTool of a listed task tool: %+v, %v", res, err)
	}
	<-started
	tasks, err := c.ListTasks(ctx)
	if err != nil || len(tasks) != 2 || tasks[0].Status != TaskCompleted || tasks[1].Status != TaskCompleted {
		t.Errorf("ListTasks = %+v, %v", tasks, err)
	}
}

// The task API: start, watch, cancel; and CallTool cancels its task when
// its ctx ends.
func TestToolTaskAPI(t *testing.T) {
	srv, started, _ := taskServer()
	c, _ := connectMCPTest(t, srv, nil)
	ctx := t.Context()

	task, err := c.StartToolTask(ctx, "research", nil, &TaskOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if task.Status != TaskWorking || task.TaskID == "" {
		t.Errorf("created task %+v", task)
	}
	<-started
	got, err := c.GetTask(ctx, task.TaskID)
	if err != nil || got.Status != TaskWorking {
		t.Errorf("GetTask = %+v, %v", got, err)
	}
	if got, err = c.CancelTask(ctx, task.TaskID); err != nil || got.Status != TaskCancelled {
		t.Errorf("CancelTask = %+v, %v", got, err)
	}
	if got, err = c.WaitTask(ctx, task.TaskID); err != nil || got.Status != TaskCancelled {
		t.Errorf("WaitTask = %+v, %v", got, err)
	}
	if _, err := c.CancelTask(ctx, task.TaskID); err == nil {
		t.Error("cancelling an ended task succeeded")
	}

	callCtx, cancel := context.WithCancel(ctx)
	go func() {
		<-started
		cancel()
	}()
	if _, err := c.CallTool(callCtx, "research", nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool under a cancelled ctx: %v", err)
	}
	tasks, err := c.ListTasks(ctx)
	if err != nil || len(tasks) != 2 || tasks[1].Status != TaskCancelled {
		t.Errorf("after the caller gave up, tasks = %+v, %v", tasks, err)
	}
}
