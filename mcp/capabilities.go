package mcp

import "encoding/json"

// ClientCapabilities is what the client declares in initialize. The client
// fills it from ClientOptions: a feature is declared only when its handler
// is set.
type ClientCapabilities struct {
	Roots        *RootsCapability           `json:"roots,omitempty"`
	Sampling     *SamplingCapability        `json:"sampling,omitempty"`
	Elicitation  *ElicitationCapability     `json:"elicitation,omitempty"`
	Tasks        *ClientTasksCapability     `json:"tasks,omitempty"`
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	// Extensions are the extensions the client supports, by identifier
	// (such as MCP Apps' "io.modelcontextprotocol/ui"), with their
	// settings; ClientOptions.Extensions fills it.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// RootsCapability declares roots/list; ListChanged promises
// notifications/roots/list_changed.
type RootsCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// SamplingCapability declares sampling/createMessage. Context allows
// includeContext other than "none"; Tools allows tools and toolChoice
// (2025-11-25).
type SamplingCapability struct {
	Context *EmptyObject `json:"context,omitempty"`
	Tools   *EmptyObject `json:"tools,omitempty"`
}

// ElicitationCapability declares elicitation/create and its modes. Both nil
// (an empty object) means form mode only, as in 2025-06-18.
type ElicitationCapability struct {
	Form *EmptyObject `json:"form,omitempty"`
	URL  *EmptyObject `json:"url,omitempty"`
}

// ClientTasksCapability declares task-augmented requests the client accepts
// (2025-11-25, experimental).
type ClientTasksCapability struct {
	List     *EmptyObject        `json:"list,omitempty"`
	Cancel   *EmptyObject        `json:"cancel,omitempty"`
	Requests *ClientTaskRequests `json:"requests,omitempty"`
}

// ClientTaskRequests lists the server→client requests that may run as tasks.
type ClientTaskRequests struct {
	Sampling    *TaskSamplingRequests    `json:"sampling,omitempty"`
	Elicitation *TaskElicitationRequests `json:"elicitation,omitempty"`
}

// TaskSamplingRequests: sampling/createMessage may run as a task.
type TaskSamplingRequests struct {
	CreateMessage *EmptyObject `json:"createMessage,omitempty"`
}

// TaskElicitationRequests: elicitation/create may run as a task.
type TaskElicitationRequests struct {
	Create *EmptyObject `json:"create,omitempty"`
}

// ServerCapabilities is what the server declared in its initialize answer.
// A nil field means the feature is absent.
type ServerCapabilities struct {
	Prompts      *PromptsCapability         `json:"prompts,omitempty"`
	Resources    *ResourcesCapability       `json:"resources,omitempty"`
	Tools        *ToolsCapability           `json:"tools,omitempty"`
	Logging      *EmptyObject               `json:"logging,omitempty"`
	Completions  *EmptyObject               `json:"completions,omitempty"`
	Tasks        *ServerTasksCapability     `json:"tasks,omitempty"`
	Experimental map[string]json.RawMessage `json:"experimental,omitempty"`
	// Extensions are the official extensions the server supports
	// (2026-07-28), by identifier such as ExtensionTasks, with their
	// settings. The client uses none of them; they are here to be seen.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// PromptsCapability: the server offers prompts.
type PromptsCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourcesCapability: the server offers resources; Subscribe allows
// resources/subscribe.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

// ToolsCapability: the server offers tools.
type ToolsCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ServerTasksCapability declares the server's task support (2025-11-25).
type ServerTasksCapability struct {
	List     *EmptyObject        `json:"list,omitempty"`
	Cancel   *EmptyObject        `json:"cancel,omitempty"`
	Requests *ServerTaskRequests `json:"requests,omitempty"`
}

// ServerTaskRequests lists the client→server requests that may run as tasks.
type ServerTaskRequests struct {
	Tools *TaskToolsRequests `json:"tools,omitempty"`
}

// TaskToolsRequests: tools/call may run as a task.
type TaskToolsRequests struct {
	Call *EmptyObject `json:"call,omitempty"`
}
