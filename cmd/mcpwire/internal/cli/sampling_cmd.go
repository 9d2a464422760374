package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// samplingCmdGrace bounds the wait for the command's output once it was
// ended: a process that left its group may hold the pipe open for ever.
const samplingCmdGrace = 2 * time.Second

// runSamplingCmd runs --sampling-cmd's shell command with the request as
// JSON on stdin and reads its stdout as the result. A failure names what
// went wrong: the exit status with the end of the command's stderr, or
// what is wrong with what it printed.
func runSamplingCmd(ctx context.Context, command string, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	shell, flag := "sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	cmd := exec.CommandContext(ctx, shell, flag, command)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, &stderr
	// CMD is a shell line, often a pipeline ("llm ... | jq ..."): when the
	// call ends first (Ctrl-C, a deadline), every process it started is
	// ended, not just the shell, which would leave them running and keep
	// Run waiting on the output pipe they hold (sampling_cmd_unix.go).
	ownGroup(cmd)
	cmd.WaitDelay = samplingCmdGrace
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if r := []rune(msg); len(r) > 500 {
			msg = "…" + string(r[len(r)-500:])
		}
		if msg != "" {
			return nil, fmt.Errorf("the command failed (%v): %s", err, oneLine(msg))
		}
		return nil, fmt.Errorf("the command failed (%v)", err)
	}
	return parseSamplingResult(stdout.Bytes())
}

// parseSamplingResult reads a command's CreateMessageResult: one JSON
// object with content; role defaults to assistant, model to the
// command's name for it, "sampling-cmd".
func parseSamplingResult(out []byte) (*mcp.CreateMessageResult, error) {
	var res mcp.CreateMessageResult
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&res); err != nil {
		return nil, fmt.Errorf("the command printed no result JSON object: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("the command printed more than one JSON value")
	}
	if len(res.Content) == 0 {
		return nil, fmt.Errorf(`the command's result has no "content"`)
	}
	switch res.Role {
	case "":
		res.Role = mcp.RoleAssistant
	case mcp.RoleAssistant:
	default:
		return nil, fmt.Errorf(`the command's result has role %q; want "assistant"`, res.Role)
	}
	if res.Model == "" {
		res.Model = "sampling-cmd"
	}
	return &res, nil
}
