package mcp

import (
	"encoding/json"
	"errors"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

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

// URLElicitationRequired reports whether err is the server's -32042 error
// (2025-11-25): the request needs the user to complete the URL
// elicitations listed in its data first. Show them (with consent, see
// ElicitRequest.URL), then retry the request.
func URLElicitationRequired(err error) ([]ElicitRequest, bool) {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeURLElicitationRequired {
		return nil, false
	}
	var data struct {
		Elicitations []ElicitRequest `json:"elicitations"`
	}
	if len(rpcErr.Data) > 0 && json.Unmarshal(rpcErr.Data, &data) != nil {
		return nil, true // the code alone says what happened
	}
	for i := range data.Elicitations {
		if data.Elicitations[i].Mode == "" {
			data.Elicitations[i].Mode = ElicitModeURL
		}
	}
	return data.Elicitations, true
}
