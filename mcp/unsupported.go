package mcp

import (
	"errors"
	"fmt"
)

// ErrUnsupported matches (errors.Is) the error of every method the server
// did not advertise in its capabilities: the client does not send such a
// request, in any era. errors.ErrUnsupported matches the same errors.
var ErrUnsupported = errors.New("mcp: the server does not offer this")

// unsupportedError is a request the client did not send because the
// server's capabilities lack what it needs.
type unsupportedError struct {
	method string // the request, or what was asked for ("tools/call as a task")
	lacks  string // the capability, as the spec spells its path
}

func (e *unsupportedError) Error() string {
	return fmt.Sprintf("mcp: %s: the server does not offer it (its capabilities have no %s)", e.method, e.lacks)
}

func (e *unsupportedError) Is(target error) bool {
	return target == ErrUnsupported || target == errors.ErrUnsupported
}

// offered returns an *unsupportedError for a method whose capability the
// server did not declare, nil for any other method (those this package
// does not know included: Request sends them as asked).
func (c *Client) offered(method string) error {
	caps := &c.init.Capabilities
	var lacks string
	switch method {
	case MethodToolsList, MethodToolsCall:
		if caps.Tools == nil {
			lacks = "tools"
		}
	case MethodPromptsList, MethodPromptsGet:
		if caps.Prompts == nil {
			lacks = "prompts"
		}
	case MethodResourcesList, MethodResourceTemplatesList, MethodResourcesRead:
		if caps.Resources == nil {
			lacks = "resources"
		}
	case MethodResourcesSubscribe, MethodResourcesUnsubscribe:
		if caps.Resources == nil || !caps.Resources.Subscribe {
			lacks = "resources.subscribe"
		}
	case MethodLoggingSetLevel:
		if caps.Logging == nil {
			lacks = "logging"
		}
	case MethodCompletionComplete:
		// 2024-11-05 had no completions capability: its servers
		// offered completion/complete without declaring it.
		if caps.Completions == nil && versionAtLeast(c.ProtocolVersion(), "2025-03-26") {
			lacks = "completions"
		}
	}
	if lacks == "" {
		return nil
	}
	return &unsupportedError{method: method, lacks: lacks}
}
