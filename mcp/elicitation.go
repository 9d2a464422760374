package mcp

import "encoding/json"

// Elicitation modes.
const (
	ElicitModeForm = "form"
	ElicitModeURL  = "url"
)

// Elicitation actions.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitRequest is the params of elicitation/create: the server asks the
// user for input, either through a form (Mode "form", RequestedSchema) or
// by sending them to a URL (Mode "url", URL, ElicitationID; 2025-11-25).
// The client sets Mode to "form" when the server left it out.
type ElicitRequest struct {
	Mode    string `json:"mode,omitempty"`
	Message string `json:"message"`
	// RequestedSchema is a flat object schema of primitive properties.
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	// URL must not be opened without the user's consent; show it whole.
	URL           string         `json:"url,omitempty"`
	ElicitationID string         `json:"elicitationId,omitempty"`
	Meta          map[string]any `json:"_meta,omitempty"`
}

// ElicitResult is the client's answer. Content is sent only with a form
// accept: values are strings, numbers, booleans or string arrays.
type ElicitResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
	Meta    map[string]any `json:"_meta,omitempty"`
}

// ElicitationComplete is the params of notifications/elicitation/complete.
type ElicitationComplete struct {
	ElicitationID string `json:"elicitationId"`
}
