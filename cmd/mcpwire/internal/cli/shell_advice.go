package cli

import (
	"regexp"
	"strings"
)

// shellAdvice rewrites the one-shot commands' advice, which the shell's
// commands share, into what is typed at the shell's prompt: "add --arg
// K=VALUE" is "add K=VALUE" there, and "mcpwire tools" is "tools".
var shellAdvice = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`add --arg (\S+)=VALUE`), "add $1=VALUE"},
	{regexp.MustCompile(`--arg #(\d+) is not in K=V form`), "the K=V word #$1 is not in K=V form (quote a value with spaces: K='a b')"},
	{regexp.MustCompile(`"mcpwire (tools|servers|prompts|resources)" lists them`), "$1 lists them"},
}

// inShellTerms is err with its advice in the shell's own syntax. Only a
// usage error, as the commands return it, carries such advice; others
// pass as they are.
func inShellTerms(err error) error {
	u, ok := err.(*UsageError)
	if !ok {
		return err
	}
	msg := u.Msg
	for _, a := range shellAdvice {
		msg = a.re.ReplaceAllString(msg, a.repl)
	}
	if msg == u.Msg {
		return err
	}
	return &UsageError{Msg: strings.TrimSpace(msg)}
}
