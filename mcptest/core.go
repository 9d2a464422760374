package mcptest

import (
	"context"
	"io"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// mcptest is the scripting face of the project's one server core
// (internal/server): the types below are the core's, named here so that
// tests written against mcptest keep compiling, and so that a fix in the
// core reaches mcptest, the demo's example server and the gateway at once.

// The core's types, under mcptest's names. They are aliases, so go doc
// and pkg.go.dev show no fields or methods here: read them on the core,
// for example go doc github.com/mcpwire/mcpwire/internal/server Server
// (or HTTPServer, Session, ToolRequest, …), which works from any module
// that requires mcpwire; only the package path differs.
type (
	CacheHint               = server.CacheHint
	ChildProcess            = server.ChildProcess
	Completion              = server.Completion
	CompletionHandler       = server.CompletionHandler
	CompletionRequest       = server.CompletionRequest
	Content                 = server.Content
	Eras                    = server.Eras
	Fault                   = server.Fault
	FaultKind               = server.FaultKind
	HTTPFailure             = server.HTTPFailure
	HTTPHandler             = server.HTTPHandler
	HTTPMisbehaviour        = server.HTTPMisbehaviour
	HTTPMisbehaviourKind    = server.HTTPMisbehaviourKind
	HTTPOptions             = server.HTTPOptions
	HTTPServer              = server.HTTPServer
	Implementation          = server.Implementation
	LegacySSEHandler        = server.LegacySSEHandler
	ModernRequest           = server.ModernRequest
	Options                 = server.Options
	PipeTransport           = server.PipeTransport
	Prompt                  = server.Prompt
	PromptArgument          = server.PromptArgument
	PromptHandler           = server.PromptHandler
	PromptMessage           = server.PromptMessage
	PromptResult            = server.PromptResult
	RecordedRequest         = server.RecordedRequest
	Replay                  = server.Replay
	ReplayTransport         = server.ReplayTransport
	RequestLog              = server.RequestLog
	Resource                = server.Resource
	ResourceContents        = server.ResourceContents
	ResourceTemplate        = server.ResourceTemplate
	ResourceTemplateHandler = server.ResourceTemplateHandler
	Server                  = server.Server
	Session                 = server.Session
	Tool                    = server.Tool
	ToolHandler             = server.ToolHandler
	ToolRequest             = server.ToolRequest
	ToolResult              = server.ToolResult
)

// The core's constants.
const (
	BlobURI                        = server.BlobURI
	BothEras                       = server.BothEras
	CodeHeaderMismatch             = server.CodeHeaderMismatch
	CodeMissingClientCapability    = server.CodeMissingClientCapability
	CodeUnsupportedProtocolVersion = server.CodeUnsupportedProtocolVersion
	CrashExitCode                  = server.CrashExitCode
	DefaultFloodCount              = server.DefaultFloodCount
	DefaultFloodSize               = server.DefaultFloodSize
	DefaultHugeEventSize           = server.DefaultHugeEventSize
	DefaultHugeSize                = server.DefaultHugeSize
	EnvEras                        = server.EnvEras
	EnvFaults                      = server.EnvFaults
	EnvPageSize                    = server.EnvPageSize
	EnvProtocolVersion             = server.EnvProtocolVersion
	FaultCrash                     = server.FaultCrash
	FaultDuplicateResponse         = server.FaultDuplicateResponse
	FaultFloodNotifications        = server.FaultFloodNotifications
	FaultFloodStderr               = server.FaultFloodStderr
	FaultHugeNotification          = server.FaultHugeNotification
	FaultMalformedLine             = server.FaultMalformedLine
	FaultNeverAnswer               = server.FaultNeverAnswer
	FaultUnknownID                 = server.FaultUnknownID
	HTTPBadWWWAuthenticate         = server.HTTPBadWWWAuthenticate
	HTTPHugeEvent                  = server.HTTPHugeEvent
	HTTPKeepAliveOnly              = server.HTTPKeepAliveOnly
	HTTPLoginPage                  = server.HTTPLoginPage
	HTTPRedirect                   = server.HTTPRedirect
	HTTPSilentStream               = server.HTTPSilentStream
	HTTPSlowBody                   = server.HTTPSlowBody
	HelloText                      = server.HelloText
	HelloURI                       = server.HelloURI
	ItemURITemplate                = server.ItemURITemplate
	LatestProtocolVersion          = server.LatestProtocolVersion
	LegacyOnly                     = server.LegacyOnly
	MetaClientCapabilities         = server.MetaClientCapabilities
	MetaClientInfo                 = server.MetaClientInfo
	MetaLogLevel                   = server.MetaLogLevel
	MetaProtocolVersion            = server.MetaProtocolVersion
	MetaServerInfo                 = server.MetaServerInfo
	MetaSubscriptionID             = server.MetaSubscriptionID
	ModernOnly                     = server.ModernOnly
	ModernProtocolVersion          = server.ModernProtocolVersion
	TaskOptional                   = server.TaskOptional
	TaskRequired                   = server.TaskRequired
)

// The core's variables: the same values, so errors.Is matches either name.
var (
	BlobBytes        = server.BlobBytes
	ErrCrashed       = server.ErrCrashed
	ErrInputRequired = server.ErrInputRequired
)

// NewServer returns an empty server; opts may be nil.
func NewServer(opts *Options) *Server { return server.NewServer(opts) }

// NewDefault returns a server with the standard set of tools, resources,
// prompts and completions (see the package documentation).
func NewDefault(opts *Options) *Server { return server.NewDefault(opts) }

// Connect serves s over an in-memory pipe until the test ends and returns
// the client's end and the session.
func Connect(t testing.TB, s *Server) (jsonrpc.Stream, *Session) {
	t.Helper()
	return server.Connect(t, s)
}

// NewHTTPServer serves srv over HTTP on a loopback port until the test
// ends (opts configure the Streamable handler and may be nil).
func NewHTTPServer(t testing.TB, srv *Server, opts *HTTPOptions) *HTTPServer {
	t.Helper()
	return server.NewHTTPServer(t, srv, opts)
}

// StartHTTPServer serves srv over HTTP on a loopback port until Close.
func StartHTTPServer(srv *Server, opts *HTTPOptions) *HTTPServer {
	return server.StartHTTPServer(srv, opts)
}

// RunIfChild runs the example server on stdio and exits when the process
// was started by ChildCommand; otherwise it returns at once.
func RunIfChild() { server.RunIfChild() }

// RunStdio serves the default server on stdin and stdout with the faults
// in the comma-separated list armed, and returns the exit code.
func RunStdio(faults string, stderr io.Writer) int { return server.RunStdio(faults, stderr) }

// ChildCommand describes the current test binary started as the example
// server, with faults armed.
func ChildCommand(faults ...string) ChildProcess { return server.ChildCommand(faults...) }

// ParseFault reads one fault written as KIND[:TARGET][=SIZE][*]: the
// kind, the method (or the tool of a tools/call) it targets, none for any
// request; a size such as 1MiB for the kinds that take one; and "*" to
// make it fire on every matching request instead of once (see Fault).
// Everything after the first ":" up to "=" or "*" is the target, so a
// size or marker spelt otherwise becomes part of a target that no request
// matches, and the fault never fires.
func ParseFault(spec string) (Fault, error) { return server.ParseFault(spec) }

// ParseFaults reads a comma-separated list of faults.
func ParseFaults(list string) ([]Fault, error) { return server.ParseFaults(list) }

// NewReplay reads a wire recording and returns a server that answers as
// the recording did.
func NewReplay(recording io.Reader) (*Replay, error) { return server.NewReplay(recording) }

// OpenReplay is NewReplay on the recording in the file at path.
func OpenReplay(path string) (*Replay, error) { return server.OpenReplay(path) }

// ResourceNotFound is the error a resource handler returns for a URI it
// does not have.
func ResourceNotFound(uri string) *jsonrpc.Error { return server.ResourceNotFound(uri) }

// SessionFromContext returns the session a handler's ctx belongs to, or nil.
func SessionFromContext(ctx context.Context) *Session { return server.SessionFromContext(ctx) }

// TextResult is a result with one text block.
func TextResult(text string) *ToolResult { return server.TextResult(text) }

// ErrorResult is an isError result with one text block.
func ErrorResult(text string) *ToolResult { return server.ErrorResult(text) }

// TextContent returns a text block.
func TextContent(text string) Content { return server.TextContent(text) }
