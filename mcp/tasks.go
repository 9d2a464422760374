package mcp

// Task statuses (2025-11-25).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Task is the state of a task-augmented request as the server reports it
// (2025-11-25): in CreateTaskResult, tasks/get, tasks/list, tasks/cancel
// and notifications/tasks/status.
type Task struct {
	TaskID string `json:"taskId"`
	// Status is one of TaskWorking, TaskInputRequired, TaskCompleted,
	// TaskFailed and TaskCancelled.
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt and LastUpdatedAt are ISO 8601 timestamps, as sent.
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	// TTL is how long, in milliseconds from creation, the server keeps
	// the task; nil means unlimited.
	TTL *int64 `json:"ttl,omitempty"`
	// PollInterval is the server's suggested wait between tasks/get, in
	// milliseconds; nil when it gave none.
	PollInterval *int64         `json:"pollInterval,omitempty"`
	Meta         map[string]any `json:"_meta,omitempty"`
}

// Terminal reports whether the task reached a final status.
func (t *Task) Terminal() bool {
	switch t.Status {
	case TaskCompleted, TaskFailed, TaskCancelled:
		return true
	}
	return false
}
