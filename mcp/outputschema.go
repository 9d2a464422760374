package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcpwire/mcpwire/internal/peerschema"
)

// OutputSchemaError means a tool's structuredContent is missing or does not
// satisfy the outputSchema the tool declared. CallTool returns it together
// with the result, so the caller can still use (or show) the output.
type OutputSchemaError struct {
	// Tool is the tool's name.
	Tool string
	// Err is the validator's detail, or ErrNoStructuredContent.
	Err error
}

func (e *OutputSchemaError) Error() string {
	return fmt.Sprintf("mcp: tool %q: the structured output does not match its outputSchema: %s", clip(e.Tool), validationDetail(e.Err))
}

// validationDetail flattens the validator's multi-line report into one
// line of "at '<pointer>': <problem>" items, dropping its header, which
// only names the schema's internal location.
func validationDetail(err error) string {
	var vErr *jsonschema.ValidationError
	if !errors.As(err, &vErr) {
		return err.Error()
	}
	var items []string
	for i, line := range strings.Split(vErr.Error(), "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimPrefix(line, "- "))
		if line == "" || (i == 0 && strings.HasPrefix(line, "jsonschema validation failed")) {
			continue
		}
		items = append(items, line)
	}
	if len(items) == 0 {
		return vErr.Error()
	}
	return strings.Join(items, "; ")
}

func (e *OutputSchemaError) Unwrap() error { return e.Err }

// ErrNoStructuredContent is the Err of an OutputSchemaError for a
// successful result without structuredContent from a tool with an
// outputSchema.
var ErrNoStructuredContent = errors.New("mcp: no structuredContent in the result")

// schemaCache holds the outputSchemas of listed tools, keyed by tool name,
// and compiles each one at most once, on the first call that needs it.
// Safe for concurrent use.
type schemaCache struct {
	mu     sync.Mutex
	byTool map[string]*toolSchema
}

// toolSchema is one tool's schema and, once compiled, the result.
type toolSchema struct {
	raw  []byte
	once sync.Once
	sch  *jsonschema.Schema // nil when compilation failed
	// cyclic is set once a validation ran into a cycle of references
	// (see refCycle): the schema is then as unusable as one that does
	// not compile. cycleOnce reports it once.
	cyclic    atomic.Bool
	cycleOnce sync.Once
}

// learn records the outputSchemas of tools. A schema identical to the one
// already known keeps its compiled form; a changed one replaces it; a tool
// without one is forgotten.
func (sc *schemaCache) learn(tools []Tool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for i := range tools {
		t := &tools[i]
		if len(t.OutputSchema) == 0 || string(t.OutputSchema) == "null" {
			delete(sc.byTool, t.Name)
			continue
		}
		if old, ok := sc.byTool[t.Name]; ok && bytes.Equal(old.raw, t.OutputSchema) {
			continue
		}
		if sc.byTool == nil {
			sc.byTool = make(map[string]*toolSchema)
		}
		sc.byTool[t.Name] = &toolSchema{raw: bytes.Clone(t.OutputSchema)}
	}
}

// retain forgets every tool not in tools (a complete listing).
func (sc *schemaCache) retain(tools []Tool) {
	sc.mu.Lock()
	empty := len(sc.byTool) == 0
	sc.mu.Unlock()
	if empty {
		return // no tool has an output schema: nothing to forget
	}
	keep := make(map[string]struct{}, len(tools))
	for i := range tools {
		keep[tools[i].Name] = struct{}{}
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for name := range sc.byTool {
		if _, ok := keep[name]; !ok {
			delete(sc.byTool, name)
		}
	}
}

// check validates a call's result against the tool's schema, if known. A
// schema that cannot be compiled goes to report, once.
func (sc *schemaCache) check(tool string, res *CallToolResult, report func(error)) error {
	if res.IsError {
		return nil
	}
	sc.mu.Lock()
	ts := sc.byTool[tool]
	sc.mu.Unlock()
	if ts == nil {
		return nil
	}
	if len(res.StructuredContent) == 0 || string(bytes.TrimSpace(res.StructuredContent)) == "null" {
		return &OutputSchemaError{Tool: tool, Err: ErrNoStructuredContent}
	}
	var compileErr error
	ts.once.Do(func() {
		sch, err := peerschema.Compile(ts.raw, schemaLocation)
		if err != nil {
			compileErr = err
			return
		}
		ts.sch = sch
	})
	if compileErr != nil {
		report(fmt.Errorf("mcp: tool %q: its outputSchema cannot be compiled, so its output is not validated: %w", clip(tool), compileErr))
	}
	if ts.sch == nil || ts.cyclic.Load() {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(res.StructuredContent))
	if err != nil {
		return &OutputSchemaError{Tool: tool, Err: fmt.Errorf("structuredContent is not valid JSON: %w", err)}
	}
	if err := ts.sch.Validate(inst); err != nil {
		if refCycle(err) {
			// The validator meets the cycle only at validation time (it
			// compiles), and no output could get past it: the schema is
			// broken, not the output.
			ts.cyclic.Store(true)
			ts.cycleOnce.Do(func() {
				report(fmt.Errorf("mcp: tool %q: its outputSchema's references form a cycle, so its output is not validated: %s", clip(tool), validationDetail(err)))
			})
			return nil
		}
		return &OutputSchemaError{Tool: tool, Err: err}
	}
	return nil
}

// refCycle reports whether a validation failed on a cycle of $refs
// anywhere in its tree of causes.
func refCycle(err error) bool {
	var vErr *jsonschema.ValidationError
	if !errors.As(err, &vErr) {
		return false
	}
	if _, ok := vErr.ErrorKind.(*kind.RefCycle); ok {
		return true
	}
	for _, cause := range vErr.Causes {
		if refCycle(cause) {
			return true
		}
	}
	return false
}

// toolsKnown is what a session's tool listings taught: the tools' output
// schemas and, in the modern era, their x-mcp-header fields. Its methods
// take a nil one as one that knows nothing.
type toolsKnown struct {
	schemas schemaCache
	headers toolHeaders
}

// learnTools returns what c's listings taught, made on first use.
func (c *Client) learnTools() *toolsKnown { return madeOnUse(&c.tools) }

// check validates a call's result against the tool's output schema, if
// one was listed (see schemaCache.check).
func (k *toolsKnown) check(tool string, res *CallToolResult, report func(error)) error {
	if k == nil {
		return nil
	}
	return k.schemas.check(tool, res, report)
}

// headerFields returns the x-mcp-header fields listed for tool.
func (k *toolsKnown) headerFields(tool string) []headerField {
	if k == nil {
		return nil
	}
	return k.headers.get(tool)
}

// retain forgets every tool not in tools (a complete listing).
func (k *toolsKnown) retain(tools []Tool) {
	if k == nil {
		return
	}
	k.schemas.retain(tools)
	k.headers.retain(tools)
}

// schemaLocation is where a tool's schema pretends to live. The .invalid
// domain never resolves, and nothing is ever fetched anyway.
const schemaLocation = "https://mcpwire.invalid/output-schema.json"
