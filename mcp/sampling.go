package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// CreateMessageRequest is the params of sampling/createMessage: the server
// asks the client's model for a completion.
type CreateMessageRequest struct {
	Messages         []SamplingMessage `json:"messages"`
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	SystemPrompt     string            `json:"systemPrompt,omitempty"`
	// IncludeContext is "none", "thisServer" or "allServers".
	IncludeContext string          `json:"includeContext,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	MaxTokens      int             `json:"maxTokens"`
	StopSequences  []string        `json:"stopSequences,omitempty"`
	Metadata       json.RawMessage `json:"metadata,omitempty"`
	// Tools and ToolChoice arrive only when the client declared
	// sampling.tools (2025-11-25).
	Tools      []Tool         `json:"tools,omitempty"`
	ToolChoice *ToolChoice    `json:"toolChoice,omitempty"`
	Meta       map[string]any `json:"_meta,omitempty"`
}

// SamplingMessage is one message of a sampling conversation.
type SamplingMessage struct {
	Role    Role            `json:"role"`
	Content SamplingContent `json:"content"`
	Meta    map[string]any  `json:"_meta,omitempty"`
}

// SamplingContent is the content of a sampling message: one block, or
// since 2025-11-25 an array of blocks. Decoding accepts both. Encoding
// writes a single block as an object, which every protocol revision
// understands, and anything else as an array.
type SamplingContent []Content

// UnmarshalJSON accepts one block or an array of blocks.
func (s *SamplingContent) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var list []Content
		if err := json.Unmarshal(data, &list); err != nil {
			return err
		}
		*s = list
		return nil
	}
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("mcp: sampling content is %s, not a block or an array of blocks", jsonKind(data))
	}
	var one Content
	if err := one.UnmarshalJSON(data); err != nil {
		return err
	}
	*s = SamplingContent{one}
	return nil
}

// MarshalJSON writes one block as an object, otherwise an array.
func (s SamplingContent) MarshalJSON() ([]byte, error) {
	if len(s) == 1 {
		return s[0].MarshalJSON()
	}
	if s == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Content(s))
}

// ModelPreferences are the server's soft wishes for the model choice.
type ModelPreferences struct {
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint names a model or a family (a substring match is fine).
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// ToolChoice says whether the model must, may or must not use tools.
type ToolChoice struct {
	// Mode is "auto", "required" or "none".
	Mode string `json:"mode,omitempty"`
}

// Common stop reasons of CreateMessageResult; others may appear.
const (
	StopEndTurn      = "endTurn"
	StopStopSequence = "stopSequence"
	StopMaxTokens    = "maxTokens"
	StopToolUse      = "toolUse"
)

// CreateMessageResult is the client's answer to sampling/createMessage.
type CreateMessageResult struct {
	// Role is "assistant"; left empty, the client fills it in.
	Role       Role            `json:"role"`
	Content    SamplingContent `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason,omitempty"`
	Meta       map[string]any  `json:"_meta,omitempty"`
}
