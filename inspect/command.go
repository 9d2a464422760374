package inspect

import (
	"bytes"
	"encoding/json"
	"strings"
)

// callCommand is a tool call as the mcpwire command that makes it again:
// a configured server's tool as SERVER/TOOL, an ad-hoc server with its
// target at the end.
func callCommand(server string, target []string, tool string, args json.RawMessage) string {
	var compact bytes.Buffer
	if err := json.Compact(&compact, args); err != nil {
		compact.Reset()
		compact.Write(args)
	}
	name := tool
	if len(target) == 0 {
		name = server + "/" + tool
	}
	cmd := "mcpwire call " + shellQuote(name)
	if a := compact.String(); a != "{}" {
		cmd += " --args-json " + shellQuote(a)
	}
	if len(target) > 0 {
		cmd += " " + shellQuoteArgs(target)
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellQuoteArgs joins argv as a POSIX shell would read it back.
func shellQuoteArgs(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
