package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

func TestExitCode(t *testing.T) {
	rpc := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool"}
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"other", errors.New("disk full"), ExitError},
		{"usage", Usagef("bad"), ExitUsage},
		{"wrapped usage", fmt.Errorf("x: %w", Usagef("bad")), ExitUsage},
		{"tool", &ToolError{Tool: "fail"}, ExitToolError},
		{"connect", &ConnectError{Target: "t", Err: errors.New("refused")}, ExitConnect},
		{"connect beats timeout", &ConnectError{Target: "t", Err: jsonrpc.ErrTimeout}, ExitConnect},
		{"connect beats rpc error", &ConnectError{Target: "t", Err: rpc}, ExitConnect},
		{"rpc error", fmt.Errorf("mcp: tools/call: %w", rpc), ExitProtocol},
		{"output schema", fmt.Errorf("tool: %w", &mcp.OutputSchemaError{}), ExitProtocol},
		{"result of the wrong shape", fmt.Errorf("mcp: tools/call: %w", &json.UnmarshalTypeError{Value: "string", Field: "content"}), ExitProtocol},
		{"timeout", fmt.Errorf("mcp: tools/call: %w", jsonrpc.ErrTimeout), ExitTimeout},
		{"deadline", context.DeadlineExceeded, ExitTimeout},
		{"closed mid-call", fmt.Errorf("mcp: %w", jsonrpc.ErrClosed), ExitConnect},
		{"http mid-call", &transport.HTTPError{StatusCode: 502}, ExitConnect},
		{"rpc error in an http error", &transport.HTTPError{StatusCode: 404, RPCError: rpc}, ExitProtocol},
		{"rpc error in a 401", &transport.HTTPError{StatusCode: 401, RPCError: rpc}, ExitConnect},
		{"http server gone mid-call", fmt.Errorf("mcp: %w", &net.OpError{Op: "dial", Err: errors.New("connection refused")}), ExitConnect},
		{"local file", fmt.Errorf("--record: %w", &fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}), ExitError},
		{"sign-in refused", &SignInError{Target: "t", Err: errors.New("access_denied")}, ExitConnect},
		{"cancelled", fmt.Errorf("x: %w", context.Canceled), ExitInterrupted},
	}
	for _, c := range cases {
		if got := ExitCode(context.Background(), c.err); got != c.want {
			t.Errorf("%s: ExitCode = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestExitCodeInterruptedWinsOnceCtxIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Whatever the interruption caused on its way out (the child died of
	// the same SIGINT, the connection closed), it counts as interrupted.
	for _, err := range []error{jsonrpc.ErrClosed, &ConnectError{Target: "t", Err: errors.New("x")}, errors.New("x")} {
		if got := ExitCode(ctx, err); got != ExitInterrupted {
			t.Errorf("ExitCode(%v) = %d, want %d", err, got, ExitInterrupted)
		}
	}
	if got := ExitCode(ctx, nil); got != ExitOK {
		t.Errorf("a run that finished before the interrupt: %d", got)
	}
}

func TestReport(t *testing.T) {
	var b bytes.Buffer
	io := &IOStreams{ErrOut: &b}
	io.AddSecret("tok-1234567")
	io.AddSecret("abc") // too short to mask: would garble messages
	err := &ConnectError{
		Target:     `stdio server "srv"`,
		Err:        errors.New("server said tok-1234567 is bad\nsecond line abc"),
		StderrTail: "line 1\nusing tok-1234567\n",
	}
	if code := Report(context.Background(), io, err); code != ExitConnect {
		t.Errorf("code = %d", code)
	}
	want := "mcpwire: cannot connect to stdio server \"srv\": server said *** is bad \u23ce second line abc\n" +
		"server stderr (last lines):\n  | line 1\n  | using ***\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

// A server's error message cannot drive the terminal: escape sequences
// (a window title, a cleared screen) are taken out of the error line.
func TestReportSanitizesTheServersWords(t *testing.T) {
	var b bytes.Buffer
	io := &IOStreams{ErrOut: &b}
	err := &jsonrpc.Error{Code: -32000, Message: "bad\x1b]0;pwned\x07 thing\x1b[2J done"}
	Report(context.Background(), io, err)
	if strings.ContainsRune(b.String(), 0x1b) || strings.ContainsRune(b.String(), 0x07) {
		t.Errorf("an escape reached the terminal: %q", b.String())
	}
	if !strings.Contains(b.String(), "thing") || !strings.Contains(b.String(), "done") {
		t.Errorf("the message was lost: %q", b.String())
	}
}

func TestReportInterruptedAndNil(t *testing.T) {
	var b bytes.Buffer
	io := &IOStreams{ErrOut: &b}
	if code := Report(context.Background(), io, nil); code != 0 || b.Len() != 0 {
		t.Errorf("nil: code %d, output %q", code, b.String())
	}
	if code := Report(context.Background(), io, context.Canceled); code != ExitInterrupted || b.String() != "mcpwire: interrupted\n" {
		t.Errorf("cancelled: code %d, output %q", code, b.String())
	}
}

// The tail's first byte is where its 8 KiB limit falls: never inside a
// character, which would show as bytes that are not UTF-8.
func TestTailStartsOnACharacter(t *testing.T) {
	for end := range 3 { // the cut falls at each byte of a character
		tl := newTail()
		tl.Write([]byte(strings.Repeat("語", tailBytes/3+100) + strings.Repeat("x", end)))
		if got := Sanitize(tl.String()); strings.Contains(got, `\x`) || !strings.HasPrefix(got, "語") {
			t.Errorf("with %d ASCII bytes at the end: the tail starts %q", end, got[:min(len(got), 12)])
		}
	}
}

func TestTail(t *testing.T) {
	tl := newTail()
	for i := range 30 {
		fmt.Fprintf(tl, "line %d\r\n\n", i)
	}
	got := tl.String()
	if !strings.HasPrefix(got, "line 20\n") || !strings.HasSuffix(got, "line 29") || strings.Count(got, "\n") != tailLines-1 {
		t.Errorf("tail = %q", got)
	}
	big := strings.Repeat("x", 3*tailBytes)
	tl.Write([]byte(big))
	if n := len(tl.String()); n != tailBytes {
		t.Errorf("kept %d bytes, want %d", n, tailBytes)
	}
	var nilTail *tail
	if nilTail.String() != "" {
		t.Error("nil tail not empty")
	}
}

// The manager's errors name its options; the command line's words name
// the flag that sets them.
func TestCLIWordingNamesTheFlag(t *testing.T) {
	got := cliWording("connect timed out after 3s (ConnectTimeout): mcp: server/discover (id 1) hit the caller's context deadline")
	if want := "connect timed out after 3s (raise --timeout, or set it to 0 to wait forever): mcp: server/discover (id 1) hit the caller's context deadline"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
