package cli

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// An argument the tool's schema does not name and a required one that is
// missing are usage errors naming it, before anything is sent: the
// server's own answer would be an isError, a -32602, or silence.
func TestCallChecksArgumentNames(t *testing.T) {
	t.Parallel()
	command, argv := interop.ServerEverything(t, "stdio")
	everything := append([]string{"--", command}, argv...)
	for _, c := range []struct {
		args   []string
		target []string
		err    string
	}{
		{a("call", "echo", "--arg", "mesage=hi"), server(), `the tool has no argument "mesage"; did you mean "message"?`},
		{a("call", "echo", "--args-json", `{"message": "a", "extra": 1}`), server(), `the tool has no argument "extra"`},
		{a("call", "add", "--arg", "a=1"), server(), `missing required argument "b"`},
		{a("call", "echo"), server(), `missing required argument "message"`},
		{a("call", "get-sum", "--arg", "a=1", "--arg", "c=2"), everything, `the tool has no argument "c"`},
		{a("call", "get-sum", "--arg", "a=1"), everything, `missing required argument "b"`},
	} {
		r := run(t, args(c.args, c.target)...)
		if r.code != ExitUsage || !strings.Contains(r.err, c.err) || r.out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", c.args, r.code, r.out, r.err, ExitUsage, c.err)
		}
	}
}
