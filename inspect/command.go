package inspect

import (
	"bytes"
	"encoding/json"
	"strings"
)

// callCommand is a tool call as the mcpwire command that makes it again:
// a configured server's tool as SERVER/TOOL, an ad-hoc server with its
// target at the end (see ServerState.Target). Each word is masked with
// redact before it is quoted for the shell: quoting changes how a secret
// is written (a single quote in it ends the quoted word, is escaped, and
// starts another), and a mask applied to the whole line would miss it.
func callCommand(server string, target []string, tool string, args json.RawMessage, redact func(string) string) string {
	var compact bytes.Buffer
	if err := json.Compact(&compact, args); err != nil {
		compact.Reset()
		compact.Write(args)
	}
	name := tool
	if len(target) == 0 {
		name = server + "/" + tool
	}
	words := []string{"mcpwire", "call", shellQuote(redact(name))}
	if a := compact.String(); a != "{}" {
		words = append(words, "--args-json", shellQuote(redact(a)))
	}
	return strings.Join(append(words, targetWords(target, redact)...), " ")
}

// targetWords quotes a target's words for the shell. Before "--" (the
// flags), an --env flag's value is the variable's name alone (the page
// never holds its value): it becomes --env "NAME=$NAME", which takes the
// value from the environment of the shell that runs the command, or,
// for a name the shell cannot expand, 'NAME=***' to fill in.
func targetWords(target []string, redact func(string) string) []string {
	out := make([]string, 0, len(target))
	flags := true
	for i := 0; i < len(target); i++ {
		w := target[i]
		switch {
		case !flags:
		case w == "--":
			flags = false
		case w == "--env" && i+1 < len(target):
			i++
			out = append(out, w, envWord(target[i]))
			continue
		}
		out = append(out, shellQuote(redact(w)))
	}
	return out
}

// envWord is the shell word of --env NAME's value: "NAME=$NAME".
func envWord(name string) string {
	if !shellName(name) {
		return shellQuote(name + "=***")
	}
	return `"` + name + `=$` + name + `"`
}

// shellName reports whether s is a name a POSIX shell expands as $s.
func shellName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
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
