package interop_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/interop"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// rootsProbe answers the server's roots/list and records that it was asked:
// server-everything asks shortly after initialized.
type rootsProbe struct {
	once  sync.Once
	asked chan struct{}
}

func newRootsProbe() *rootsProbe { return &rootsProbe{asked: make(chan struct{})} }

func (p *rootsProbe) roots(context.Context) ([]mcp.Root, error) {
	p.once.Do(func() { close(p.asked) })
	return []mcp.Root{{URI: "file:///tmp/mcpwire-interop", Name: "interop"}}, nil
}

// exerciseEverything runs the checks every transport must pass against the
// reference server: the handshake, its roots/list, tools (echo, get-sum,
// get-structured-content with output-schema validation,
// trigger-long-running-operation with progress), a resource, a prompt and
// a completion.
func exerciseEverything(t *testing.T, ctx context.Context, client *mcp.Client, probe *rootsProbe) {
	t.Helper()
	if got := client.ServerInfo().Name; got == "" {
		t.Errorf("server info has no name")
	}
	if !mcp.IsSupportedProtocolVersion(client.ProtocolVersion()) {
		t.Errorf("negotiated version %q is not one we support", client.ProtocolVersion())
	}
	if err := client.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}

	select {
	case <-probe.asked:
	case <-ctx.Done():
		t.Fatalf("server-everything never asked for roots/list: %v", ctx.Err())
	}

	tools, err := client.ListTools(ctx)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"echo", "get-sum", "get-structured-content", "trigger-long-running-operation"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list lacks %q; got %v", want, names)
		}
	}

	res, err := client.CallTool(ctx, "echo", map[string]any{"message": "hello from mcpwire"}, nil)
	if err != nil || res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "hello from mcpwire") {
		t.Fatalf("echo: %+v, %v", res, err)
	}

	res, err = client.CallTool(ctx, "get-sum", map[string]any{"a": 2, "b": 40}, nil)
	if err != nil || res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "42") {
		t.Fatalf("get-sum: %+v, %v", res, err)
	}

	// The tool has an outputSchema; a nil error means the structured
	// content was validated against it.
	res, err = client.CallTool(ctx, "get-structured-content", map[string]any{"location": "Chicago"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("get-structured-content: %+v, %v", res, err)
	}
	var weather struct {
		Temperature *float64 `json:"temperature"`
	}
	if err := json.Unmarshal(res.StructuredContent, &weather); err != nil || weather.Temperature == nil {
		t.Fatalf("get-structured-content structuredContent = %s (%v)", res.StructuredContent, err)
	}

	var mu sync.Mutex
	var progress []float64
	res, err = client.CallTool(ctx, "trigger-long-running-operation", map[string]any{"duration": 1, "steps": 3},
		&mcp.CallOptions{OnProgress: func(_ context.Context, p mcp.ProgressNotification) {
			mu.Lock()
			progress = append(progress, p.Progress)
			mu.Unlock()
		}})
	if err != nil || res.IsError {
		t.Fatalf("trigger-long-running-operation: %+v, %v", res, err)
	}
	mu.Lock()
	if len(progress) != 3 || !slices.IsSorted(progress) {
		t.Errorf("progress notifications = %v, want 3 increasing values", progress)
	}
	mu.Unlock()

	resources, err := client.ListResources(ctx)
	if err != nil || len(resources) == 0 {
		t.Fatalf("resources/list: %d resources, %v", len(resources), err)
	}
	read, err := client.ReadResource(ctx, resources[0].URI)
	if err != nil || len(read.Contents) == 0 || read.Contents[0].URI != resources[0].URI {
		t.Fatalf("resources/read %s: %+v, %v", resources[0].URI, read, err)
	}
	templates, err := client.ListResourceTemplates(ctx)
	if err != nil || len(templates) == 0 {
		t.Fatalf("resources/templates/list: %d, %v", len(templates), err)
	}

	prompt, err := client.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lisbon"})
	if err != nil || len(prompt.Messages) == 0 || !strings.Contains(prompt.Messages[0].Content.Text, "Lisbon") {
		t.Fatalf("prompts/get args-prompt: %+v, %v", prompt, err)
	}

	comp, err := client.Complete(ctx, mcp.PromptRef("completable-prompt"),
		mcp.CompletionArgument{Name: "department", Value: "Eng"}, nil)
	if err != nil || !slices.Contains(comp.Values, "Engineering") {
		t.Fatalf("completion/complete: %+v, %v", comp, err)
	}
}

func TestEverythingStdio(t *testing.T) {
	command, args := interop.ServerEverything(t, "stdio")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	probe := newRootsProbe()
	client, err := mcp.Connect(ctx, &transport.Command{Command: command, Args: args},
		&mcp.ClientOptions{Roots: probe.roots})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	exerciseEverything(t, ctx, client, probe)
	if err := client.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	<-client.Done()
}

// server-everything's simulate-research-query must run as a task
// (taskSupport "required"): CallTool runs it as one and returns the report.
func TestEverythingTaskTool(t *testing.T) {
	command, args := interop.ServerEverything(t, "stdio")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	statuses := make(chan string, 32)
	client, err := mcp.Connect(ctx, &transport.Command{Command: command, Args: args}, &mcp.ClientOptions{
		OnTaskStatus: func(_ context.Context, tk mcp.Task) {
			select {
			case statuses <- tk.Status:
			default:
			}
		},
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer client.Close()
	res, err := client.CallTool(ctx, "simulate-research-query", map[string]any{"topic": "goroutines"}, nil)
	if err != nil {
		t.Fatalf("simulate-research-query: %v", err)
	}
	if len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "Research Report: goroutines") {
		t.Errorf("result %+v", res)
	}
	tasks, err := client.ListTasks(ctx)
	if err != nil || len(tasks) == 0 || tasks[len(tasks)-1].Status != mcp.TaskCompleted {
		t.Errorf("ListTasks = %+v, %v", tasks, err)
	}
}

// In its ambiguous mode the task needs input: it moves to input_required
// and asks for a clarification on tasks/result, which the client's
// elicitation handler answers; the report then uses the answer.
func TestEverythingTaskAsksForInput(t *testing.T) {
	command, args := interop.ServerEverything(t, "stdio")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	asked := make(chan string, 1)
	client, err := mcp.Connect(ctx, &transport.Command{Command: command, Args: args}, &mcp.ClientOptions{
		Elicitation: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			select {
			case asked <- req.Message:
			default:
			}
			content, err := mcp.ElicitationDefaults(req.RequestedSchema)
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: "accept", Content: content}, nil
		},
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer client.Close()
	res, err := client.CallTool(ctx, "simulate-research-query", map[string]any{"topic": "channels", "ambiguous": true}, nil)
	if err != nil {
		t.Fatalf("simulate-research-query: %v", err)
	}
	select {
	case msg := <-asked:
		if !strings.Contains(msg, "channels") {
			t.Errorf("the question %q does not name the topic", msg)
		}
	default:
		t.Fatal("the server never asked for a clarification")
	}
	if len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "input_required") {
		t.Errorf("the report does not show the input_required step: %+v", res)
	}
}
