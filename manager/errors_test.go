package manager

import (
	"errors"
	"fmt"
	"testing"
)

// The package's own causes begin "manager: "; an *Error around one says
// the package once, and errors.Is still finds the cause.
func TestErrorSaysManagerOnce(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{&Error{Op: `call tool "nope"`, Err: ErrUnknownTool}, `mcp manager: call tool "nope": no such tool`},
		{&Error{Server: "fs", Op: "connect", Err: ErrShutdown}, `mcp server "fs": connect: shut down`},
		{&Error{Server: "fs", Op: "connect", Err: &BreakerError{Failures: 5, Last: errors.New("exit status 1")}},
			`mcp server "fs": connect: breaker open after 5 failures in a row; automatic restarts stopped, Connect retries; last failure: exit status 1`},
		{&Error{Server: "fs", Op: "connect", Err: fmt.Errorf("transport: start %q: no such file", "x")}, `mcp server "fs": connect: transport: start "x": no such file`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		if !errors.Is(tc.err, tc.err.Err) {
			t.Errorf("errors.Is(%v, its cause) = false", tc.err)
		}
	}
}
