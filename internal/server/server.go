package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"
)

// Protocol versions the server knows, oldest first.
var knownVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// LatestProtocolVersion is what the server answers a client whose version it
// does not support, unless Options say otherwise.
const LatestProtocolVersion = "2025-11-25"

// ErrCrashed is returned by Serve after the crash fault closed the stream.
var ErrCrashed = errors.New("mcptest: crashed on purpose")

// Options configure a Server. The zero value is usable.
type Options struct {
	// Name, Title and Version form serverInfo. Defaults: "mcptest", "", "1.0.0".
	Name, Title, Version string
	// ProtocolVersion, when set, is answered to every initialize whatever
	// the client asked. When empty the server echoes the client's version
	// if it is in SupportedVersions, else answers the newest of those.
	ProtocolVersion string
	// SupportedVersions defaults to 2024-11-05 … 2025-11-25.
	SupportedVersions []string
	// RejectUnsupportedVersion answers an initialize with an unsupported
	// version by error -32602 with data {supported, requested} instead of
	// counter-proposing a version.
	RejectUnsupportedVersion bool
	// Instructions is sent in the InitializeResult when not empty.
	Instructions string
	// PageSize splits tools/list, resources/list, resources/templates/list
	// and prompts/list into pages of that many items; 0 means one page.
	PageSize int
	// Capabilities, when set, is sent as the server capabilities verbatim.
	// Otherwise they are derived from what is registered (tools, logging
	// always; resources, prompts and completions when present).
	Capabilities json.RawMessage
	// Stderr receives the flood-stderr fault's bytes. Nil discards them;
	// ServeStdio uses os.Stderr.
	Stderr io.Writer
	// Faults are armed from the start (see Server.Fault).
	Faults []Fault
	// Redact, when set, rewrites the strings of every message the server
	// sends a client: results, notifications, its own requests, error
	// messages and data. A gateway masks the credentials it holds for its
	// upstreams with it. It is called on a message's raw JSON as a whole
	// first; a message it leaves as it was is sent as it is, and in one it
	// changed, it is applied to each decoded string, so the JSON stays
	// valid and only the strings change. See redactOut.
	Redact func(string) string
	// Eras selects the protocol eras served: both (the default), modern
	// (2026-07-28 only) or legacy (up to 2025-11-25 only). See Eras.
	Eras Eras
	// ModernVersions are the modern-era versions accepted in requests'
	// _meta and listed by server/discover; default [ModernProtocolVersion].
	ModernVersions []string
	// NoRecord keeps no record of what clients sent: Session.Received,
	// WaitReceived, Problems, ModernRequests and the HTTP handlers'
	// Requests then see nothing. A test server keeps
	// every message for its assertions; a long-running server (the
	// gateway) must not, or each session's memory grows with every call.
	NoRecord bool
	// MaxInFlight bounds the requests of one session that run at once:
	// past it a request is answered at once with error -32000 ("server
	// busy: N requests already in flight on this session") and the
	// session reads on, so that notifications (cancellations among them)
	// and responses, which it never refuses, still arrive. (A place held
	// only while its response is written is waited for, 2 s at most: a
	// host that waits for each answer is never refused.) Zero means
	// DefaultMaxInFlight; a negative value, no bound. Over Streamable HTTP
	// it bounds each session's concurrent POSTs; a stateless request (or
	// a 2026-07-28 one) is a session of its own, one request long, which
	// HTTPOptions.MaxStatelessRequests bounds instead. It also
	// bounds a session's working tasks (AddTaskTool), which answer their
	// call at once and run on: past it a task-augmented call gets the
	// same error ("N tasks already working"). A session keeps at most
	// 1024 ended tasks for tasks/result, dropping the oldest.
	MaxInFlight int
}

// DefaultMaxInFlight is Options.MaxInFlight's default: far more than a
// host runs at once, few enough that one session cannot make the server
// (or the gateway, upstream) start a goroutine and a call per request it
// pipelines.
const DefaultMaxInFlight = 1024

// Server is a scriptable MCP server. Configure it (Add*, Set*, Fault)
// before or while serving: every method is safe for concurrent use, and
// changes made while sessions are open are announced to them with the
// list_changed or resources/updated notifications.
type Server struct {
	opts Options
	// maxInFlight is Options.MaxInFlight resolved: 0 is no bound.
	maxInFlight int

	mu         sync.Mutex
	tools      []toolEntry
	toolIndex  map[string]int // name -> index in tools; see indexToolsLocked
	resources  []Resource
	templates  []templateEntry
	prompts    []promptEntry
	completion CompletionHandler
	faults     faultSet
	armed      atomic.Bool // a fault was armed at some time (faultless)
	sessions   map[*Session]struct{}
	nextSessID int
	stderr     io.Writer
	// crash runs before the in-process crash (closing the stream);
	// ServeStdio sets it to exit the process.
	crash    func()
	stderrMu sync.Mutex // one flood at a time, so floods do not interleave

	modern modernState // see modern.go
	routed routedState // see routed.go

	closing  bool
	closedCh chan struct{}
	serving  sync.WaitGroup // goroutines started by Connect and Transport
}

type toolEntry struct {
	tool    Tool
	handler ToolHandler
	// task is the tool's execution.taskSupport ("" for none), read once
	// here rather than on every call.
	task string
}

func newToolEntry(t Tool, h ToolHandler) toolEntry {
	return toolEntry{tool: t, handler: h, task: executionSupport(t.Execution)}
}

type templateEntry struct {
	tmpl    ResourceTemplate
	handler ResourceTemplateHandler
}

type promptEntry struct {
	prompt  Prompt
	handler PromptHandler
}

// NewServer returns an empty server; opts may be nil.
func NewServer(opts *Options) *Server {
	s := &Server{sessions: map[*Session]struct{}{}, closedCh: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Name == "" {
		s.opts.Name = "mcptest"
	}
	if s.opts.Version == "" {
		s.opts.Version = "1.0.0"
	}
	if len(s.opts.SupportedVersions) == 0 {
		s.opts.SupportedVersions = slices.Clone(knownVersions)
	}
	s.maxInFlight = OrDefault(s.opts.MaxInFlight, DefaultMaxInFlight)
	s.faults = slices.Clone(s.opts.Faults)
	s.armed.Store(len(s.faults) > 0)
	s.stderr = s.opts.Stderr
	return s
}

// AddTool registers a tool, replacing one of the same name. Open sessions
// get notifications/tools/list_changed.
func (s *Server) AddTool(t Tool, h ToolHandler) {
	if len(t.InputSchema) == 0 {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	s.mu.Lock()
	if i, ok := s.toolIndex[t.Name]; ok {
		s.tools[i] = newToolEntry(t, h)
	} else {
		s.tools = append(s.tools, newToolEntry(t, h))
		s.indexToolsLocked()
	}
	s.mu.Unlock()
	s.broadcast("notifications/tools/list_changed", nil, "")
}

// RemoveTool unregisters a tool; open sessions get
// notifications/tools/list_changed. It reports whether the tool existed.
func (s *Server) RemoveTool(name string) bool {
	s.mu.Lock()
	n := len(s.tools)
	s.tools = slices.DeleteFunc(s.tools, func(e toolEntry) bool { return e.tool.Name == name })
	removed := len(s.tools) != n
	s.indexToolsLocked()
	s.mu.Unlock()
	if removed {
		s.broadcast("notifications/tools/list_changed", nil, "")
	}
	return removed
}

// AddResource registers a static resource, or replaces the one with the
// same URI. A new resource is announced with
// notifications/resources/list_changed; a replaced one with
// notifications/resources/updated to the sessions subscribed to it.
func (s *Server) AddResource(r Resource) {
	s.mu.Lock()
	i := slices.IndexFunc(s.resources, func(e Resource) bool { return e.URI == r.URI })
	if i >= 0 {
		s.resources[i] = r
	} else {
		s.resources = append(s.resources, r)
	}
	s.mu.Unlock()
	if i >= 0 {
		s.ResourceUpdated(r.URI)
		return
	}
	s.broadcast("notifications/resources/list_changed", nil, "")
}

// ResourceUpdated sends notifications/resources/updated for uri to every
// session subscribed to it.
func (s *Server) ResourceUpdated(uri string) {
	s.broadcast("notifications/resources/updated", map[string]string{"uri": uri}, uri)
}

// AddResourceTemplate registers a resource template and the handler that
// reads the URIs it matches.
func (s *Server) AddResourceTemplate(t ResourceTemplate, h ResourceTemplateHandler) {
	s.mu.Lock()
	s.templates = append(s.templates, templateEntry{t, h})
	s.mu.Unlock()
	s.broadcast("notifications/resources/list_changed", nil, "")
}

// AddPrompt registers a prompt, replacing one of the same name; open
// sessions get notifications/prompts/list_changed.
func (s *Server) AddPrompt(p Prompt, h PromptHandler) {
	s.mu.Lock()
	i := slices.IndexFunc(s.prompts, func(e promptEntry) bool { return e.prompt.Name == p.Name })
	if i >= 0 {
		s.prompts[i] = promptEntry{p, h}
	} else {
		s.prompts = append(s.prompts, promptEntry{p, h})
	}
	s.mu.Unlock()
	s.broadcast("notifications/prompts/list_changed", nil, "")
}

// SetCompletion sets the handler of completion/complete (and makes the
// server declare the completions capability).
func (s *Server) SetCompletion(h CompletionHandler) {
	s.mu.Lock()
	s.completion = h
	s.mu.Unlock()
}

// Fault arms a fault (see FaultKind for what each does).
func (s *Server) Fault(f Fault) {
	s.mu.Lock()
	s.faults = append(s.faults, f)
	s.armed.Store(true)
	s.mu.Unlock()
}

// ClearFaults disarms every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// Faults returns the faults still armed.
func (s *Server) Faults() []Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.faults)
}

func (s *Server) takeFault(kind FaultKind, method, tool string) (Fault, bool) {
	if s.faultless() {
		return Fault{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.take(kind, method, tool)
}

// faultless reports whether no fault was ever armed, so that serving
// (the gateway's) need not take the server's lock eight times per request
// to find none. Once a fault is armed it stays false.
func (s *Server) faultless() bool { return !s.armed.Load() }

// Sessions returns the sessions currently open, oldest first.
func (s *Server) Sessions() []*Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Session, 0, len(s.sessions))
	for ss := range s.sessions {
		out = append(out, ss)
	}
	slices.SortFunc(out, func(a, b *Session) int { return a.seq - b.seq })
	return out
}

// Close ends every open session and waits for the goroutines that Connect
// and Transport started. Serve calls already running return too. The
// server cannot serve again afterwards.
func (s *Server) Close() error {
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		close(s.closedCh)
	}
	open := make([]*Session, 0, len(s.sessions))
	for ss := range s.sessions {
		open = append(open, ss)
	}
	s.mu.Unlock()
	for _, ss := range open {
		ss.shutdown()
	}
	s.serving.Wait()
	return nil
}

// broadcast sends a notification to every initialized session, or, when
// uri is set, to those subscribed to uri. It does not wait: a client that
// is not reading must not block the caller.
func (s *Server) broadcast(method string, params any, uri string) {
	s.notifyListeners(method, params, uri)
	for _, ss := range s.Sessions() {
		if !ss.isInitialized() || (uri != "" && !ss.subscribed(uri)) {
			continue
		}
		ss.notifyAsync(method, params)
	}
}

func (s *Server) floodStderr(n int) {
	s.stderrMu.Lock()
	defer s.stderrMu.Unlock()
	s.mu.Lock()
	w := s.stderr
	s.mu.Unlock()
	if w == nil {
		return
	}
	line := bytes.Repeat([]byte("mcptest: flooding stderr on purpose ...........................\n"), 1024)
	for n > 0 {
		chunk := line
		if n < len(chunk) {
			chunk = chunk[:n]
		}
		if _, err := w.Write(chunk); err != nil {
			return
		}
		n -= len(chunk)
	}
}

// indexToolsLocked rebuilds the index by name after s.tools changed: a
// gateway serves thousands of tools, and every call looks its tool up.
func (s *Server) indexToolsLocked() {
	s.toolIndex = make(map[string]int, len(s.tools))
	for i, e := range s.tools {
		if _, dup := s.toolIndex[e.tool.Name]; !dup { // the first wins, as a scan would find
			s.toolIndex[e.tool.Name] = i
		}
	}
}

// toolLocked returns the registered tool of that name.
// toolLockedBytes is toolLocked for a name in bytes; the map lookup makes
// no string of them.
func (s *Server) toolLockedBytes(name []byte) (toolEntry, bool) {
	i, ok := s.toolIndex[string(name)]
	if !ok {
		return toolEntry{}, false
	}
	return s.tools[i], true
}

func (s *Server) toolLocked(name string) (toolEntry, bool) {
	i, ok := s.toolIndex[name]
	if !ok {
		return toolEntry{}, false
	}
	return s.tools[i], true
}
