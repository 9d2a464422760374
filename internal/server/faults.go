package server

import (
	"fmt"
	"strconv"
	"strings"
)

// FaultKind names one way the server misbehaves on purpose. The names are
// what ParseFaults, the MCPTEST_FAULTS variable and the -faults flag of
// cmd/mcptest-server accept.
type FaultKind string

// The fault kinds. "The next matching request" is the next request whose
// method, or whose tool name for tools/call, equals the fault's Target (any
// request, initialize and ping included, when Target is empty).
const (
	// FaultMalformedLine writes a line that is not JSON-RPC just before the
	// response to the next matching request (over HTTP: an SSE event whose
	// data is that line).
	FaultMalformedLine FaultKind = "malformed-line"
	// FaultUnknownID sends a response to an id the client never used
	// ("mcptest-unknown-id") just before the response to the next matching
	// request.
	FaultUnknownID FaultKind = "unknown-id"
	// FaultDuplicateResponse sends the response to the next matching
	// request twice.
	FaultDuplicateResponse FaultKind = "duplicate-response"
	// FaultCrash crashes while handling the next matching request, before
	// any answer: a child process writes "mcptest: crashing on purpose" to
	// stderr and exits with status 3; in process the stream is closed
	// abruptly and Serve returns ErrCrashed.
	FaultCrash FaultKind = "crash"
	// FaultNeverAnswer swallows the next matching request: no response,
	// ever (a cancellation is recorded as usual).
	FaultNeverAnswer FaultKind = "never-answer"
	// FaultFloodStderr writes Size bytes (default 4 MiB) to the server's
	// stderr before handling the next matching request, so a client that
	// does not drain stderr stalls the server.
	FaultFloodStderr FaultKind = "flood-stderr"
	// FaultHugeNotification sends a notifications/message whose data is a
	// string of Size bytes (default 64 MiB) just before the response to the
	// next matching request.
	FaultHugeNotification FaultKind = "huge-notification"
	// FaultFloodNotifications sends Size notifications/message (default
	// DefaultFloodCount) as fast as the transport takes them, just before
	// the response to the next matching request: a server that floods a
	// client, to test the client's bounded queues. Their data is
	// "flood N", N counting from 1.
	FaultFloodNotifications FaultKind = "flood-notifications"
)

// Default sizes of the faults that have one.
const (
	DefaultFloodSize = 4 << 20
	DefaultHugeSize  = 64 << 20
	// DefaultFloodCount is how many notifications flood-notifications
	// sends; its Size is a count, not bytes.
	DefaultFloodCount = 10000
)

var faultKinds = []FaultKind{
	FaultMalformedLine, FaultUnknownID, FaultDuplicateResponse, FaultCrash,
	FaultNeverAnswer, FaultFloodStderr, FaultHugeNotification, FaultFloodNotifications,
}

// Fault is one armed misbehaviour.
type Fault struct {
	Kind FaultKind
	// Target restricts the fault to requests of this method, or to
	// tools/call of the tool with this name. Empty matches any request.
	Target string
	// Size is the byte count of flood-stderr and huge-notification and
	// the notification count of flood-notifications; 0 means the default.
	Size int
	// Sticky makes the fault fire on every matching request; otherwise it
	// fires once and disarms.
	Sticky bool
}

// String formats f in the syntax ParseFault reads.
func (f Fault) String() string {
	s := string(f.Kind)
	if f.Target != "" {
		s += ":" + f.Target
	}
	if f.Size != 0 {
		s += "=" + strconv.Itoa(f.Size)
	}
	if f.Sticky {
		s += "*"
	}
	return s
}

func (f Fault) matches(method, tool string) bool {
	return f.Target == "" || f.Target == method || (tool != "" && f.Target == tool)
}

func (f Fault) size() int {
	if f.Size > 0 {
		return f.Size
	}
	switch f.Kind {
	case FaultFloodStderr:
		return DefaultFloodSize
	case FaultFloodNotifications:
		return DefaultFloodCount
	}
	return DefaultHugeSize
}

// ParseFault reads one fault: KIND[:TARGET][=SIZE][*], for example
// "never-answer:tools/list", "crash:slow", "flood-stderr=8MiB",
// "duplicate-response*". SIZE is bytes, optionally with a KiB or MiB
// suffix; a trailing * makes the fault sticky.
func ParseFault(spec string) (Fault, error) {
	orig := spec
	var f Fault
	spec = strings.TrimSpace(spec)
	if strings.HasSuffix(spec, "*") {
		f.Sticky = true
		spec = strings.TrimSuffix(spec, "*")
	}
	if i := strings.LastIndexByte(spec, '='); i >= 0 {
		n, err := parseSize(spec[i+1:])
		if err != nil {
			return Fault{}, fmt.Errorf("mcptest: fault %q: size: %w", orig, err)
		}
		f.Size = n
		spec = spec[:i]
	}
	kind, target, _ := strings.Cut(spec, ":")
	f.Kind, f.Target = FaultKind(kind), target
	known := false
	for _, k := range faultKinds {
		known = known || k == f.Kind
	}
	if !known {
		names := make([]string, len(faultKinds))
		for i, k := range faultKinds {
			names[i] = string(k)
		}
		return Fault{}, fmt.Errorf("mcptest: fault %q: unknown kind %q (want one of %s)", orig, kind, strings.Join(names, ", "))
	}
	if f.Size != 0 && f.Kind != FaultFloodStderr && f.Kind != FaultHugeNotification && f.Kind != FaultFloodNotifications {
		return Fault{}, fmt.Errorf("mcptest: fault %q: %s takes no size", orig, f.Kind)
	}
	return f, nil
}

// ParseFaults reads a comma-separated list of faults (see ParseFault);
// empty items are ignored.
func ParseFaults(list string) ([]Fault, error) {
	var out []Fault
	for _, item := range strings.Split(list, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		f, err := ParseFault(item)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parseSize(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "MiB"):
		mult, s = 1<<20, strings.TrimSuffix(s, "MiB")
	case strings.HasSuffix(s, "KiB"):
		mult, s = 1<<10, strings.TrimSuffix(s, "KiB")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive number of bytes (KiB and MiB suffixes allowed)", s)
	}
	if n > (1<<31)/mult {
		return 0, fmt.Errorf("%q is larger than 2 GiB", s)
	}
	return n * mult, nil
}

// faultSet is the server's armed faults. It is guarded by Server.mu.
type faultSet []Fault

// take returns the first armed fault of kind matching the request, and
// disarms it unless it is sticky.
func (fs *faultSet) take(kind FaultKind, method, tool string) (Fault, bool) {
	for i, f := range *fs {
		if f.Kind != kind || !f.matches(method, tool) {
			continue
		}
		if !f.Sticky {
			*fs = append((*fs)[:i:i], (*fs)[i+1:]...)
		}
		return f, true
	}
	return Fault{}, false
}
