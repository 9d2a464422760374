package cli

// completion_words.go is the engine behind shell completion: given the
// words typed after "mcpwire", the last one being completed, it says what
// may come there. The shell scripts (completion_scripts.go) call it as
// the hidden command "mcpwire __complete WORD..." and print its answer.
//
// The answer is one line with what to complete, then the candidates, one
// per line, each optionally followed by a tab and a description:
//
//	words       the candidates below (possibly none)
//	files       file names (the shell's own completion)
//	dirs        directory names
//	default     whatever the shell completes by itself (after "--")

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/mcp"
)

// CompleteName is the hidden command the completion scripts call.
const CompleteName = "__complete"

// completion is what may come at the word being completed.
type completion struct {
	kind  string // words, files, dirs or default
	items []candidate
}

// candidate is one completion with an optional description.
type candidate struct {
	word, desc string
}

// completeWords answers "mcpwire __complete WORD...": it prints the
// completion of the last word (empty for a new one). It never fails: a
// command line it cannot make sense of completes nothing.
func completeWords(ctx context.Context, io *IOStreams, words []string) error {
	if len(words) == 0 {
		words = []string{""}
	}
	c := completeLine(ctx, words)
	cur := words[len(words)-1]
	fmt.Fprintln(io.Out, c.kind)
	for _, it := range c.items {
		if !strings.HasPrefix(it.word, cur) || !completable(it.word) {
			continue
		}
		if it.desc != "" {
			fmt.Fprintf(io.Out, "%s\t%s\n", it.word, shortDesc(it.desc))
		} else {
			fmt.Fprintln(io.Out, it.word)
		}
	}
	return nil
}

// completable reports whether a shell can offer w: a word from a server
// with a space or a control character in it cannot be typed as one word,
// and one that Sanitize would change (a C1 control, a byte that is not
// UTF-8, a bidirectional or invisible character) would reach the
// terminal raw in the shell's list, or not be the word it looks like.
func completable(w string) bool {
	return w != "" && utf8.ValidString(w) &&
		!strings.ContainsFunc(w, func(r rune) bool { return r <= ' ' || isUnsafeForTerminal(r) })
}

// shortDesc is the first line of a description, made safe and short.
func shortDesc(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s))
	s = Sanitize(s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// completeLine decides what may come at words' last word.
func completeLine(ctx context.Context, words []string) completion {
	cur, before := words[len(words)-1], words[:len(words)-1]
	if len(before) == 0 {
		return commandNames(cur)
	}
	switch before[0] {
	case "help":
		if len(before) == 1 {
			return commandNames("")
		}
		return completion{kind: "words"}
	case "completion":
		if len(before) == 1 {
			return wordsOf("bash", "zsh", "fish")
		}
		return completion{kind: "words"}
	}
	cmd := lookup(before[0])
	if cmd == nil || cmd.Hidden {
		return completion{kind: "words"}
	}
	fs := cmd.FlagSet()
	line, ok := scanLine(fs, before[1:])
	switch {
	case !ok:
		return completion{kind: "default"} // after "--": the server's command line
	case line.valueOf != nil:
		return flagValues(ctx, cmd, fs, line, line.valueOf, cur)
	case strings.HasPrefix(cur, "-"):
		if name, prefix, ok := strings.Cut(strings.TrimLeft(cur, "-"), "="); ok {
			if f := fs.Lookup(name); f != nil && !isBool(f) {
				c := flagValues(ctx, cmd, fs, line, f, prefix)
				for i := range c.items {
					c.items[i].word = "--" + name + "=" + c.items[i].word
				}
				return c
			}
		}
		return flagNames(fs)
	}
	return positional(ctx, cmd.Name, line, cur)
}

// scannedLine is what a command's words before the current one hold.
type scannedLine struct {
	args    []string            // positional arguments
	values  map[string][]string // flag values given, by flag name
	valueOf *flag.Flag          // the flag whose value the current word is
}

// scanLine reads a command's words before the current one as Parse
// would; ok is false once a "--" was passed.
func scanLine(fs *flag.FlagSet, words []string) (scannedLine, bool) {
	l := scannedLine{values: make(map[string][]string)}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			return l, false
		case w == "-" || !strings.HasPrefix(w, "-"):
			l.args = append(l.args, w)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		f := fs.Lookup(name)
		if f == nil || isBool(f) {
			continue
		}
		if !hasValue {
			if i+1 == len(words) {
				l.valueOf = f
				return l, true
			}
			i++
			value = words[i]
		}
		l.values[name] = append(l.values[name], value)
	}
	return l, true
}

// commandNames are the commands the user may type first.
func commandNames(cur string) completion {
	c := completion{kind: "words"}
	if strings.HasPrefix(cur, "-") {
		return wordsOf("--help", "--version")
	}
	for _, build := range commands {
		if cmd := build(); !cmd.Hidden {
			c.items = append(c.items, candidate{cmd.Name, cmd.Summary})
		}
	}
	c.items = append(c.items, candidate{"help", "show the help of mcpwire or of a command"})
	return c
}

// flagNames are the flags fs accepts, with their usage as description.
func flagNames(fs *flag.FlagSet) completion {
	c := completion{kind: "words"}
	fs.VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		c.items = append(c.items, candidate{"--" + f.Name, usage})
	})
	c.items = append(c.items, candidate{"--help", "show this help"})
	return c
}

// flagValues are the values flag f may take.
func flagValues(ctx context.Context, cmd *Command, fs *flag.FlagSet, line scannedLine, f *flag.Flag, cur string) completion {
	switch f.Name {
	case "config", "record", "output", "replay":
		return completion{kind: "files"}
	case "root":
		return completion{kind: "dirs"}
	case "server":
		return configuredNames(ctx, cmd.Name, line, cur, nothingListed)
	case "transport":
		return wordsOf("auto", "http", "sse")
	case "protocol":
		return wordsOf(append([]string{"auto"}, mcp.ProtocolVersions()...)...)
	case "log-level":
		return wordsOf("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
	case "elicit":
		return wordsOf("defaults", "decline", "cancel")
	case "format":
		return wordsOf(formatsOf(f)...)
	}
	return completion{kind: "words"}
}

// formatsOf reads the formats a --format flag lists in its usage
// ("output FORMAT: table, json, jsonl (default table)").
func formatsOf(f *flag.Flag) []string {
	_, list, _ := strings.Cut(f.Usage, ": ")
	list, _, _ = strings.Cut(list, " (")
	return strings.Split(list, ", ")
}

// wordsOf completes fixed words.
func wordsOf(words ...string) completion {
	c := completion{kind: "words"}
	for _, w := range words {
		c.items = append(c.items, candidate{word: w})
	}
	return c
}

// positionalKind says what a command's first positional argument names
// on configured servers; commands not listed complete none.
var positionalKind = map[string]listed{
	"tools":     toolsListed,
	"call":      toolsListed,
	"prompt":    promptsListed,
	"read":      resourcesListed,
	"resources": nothingListed,
	"prompts":   nothingListed,
	"info":      nothingListed,
	"ping":      nothingListed,
	"watch":     nothingListed,
	"login":     nothingListed,
	"logout":    nothingListed,
}

// positional completes a command's first positional argument from the
// configured servers: a server name, or SERVER/NAME of what it lists.
func positional(ctx context.Context, command string, line scannedLine, cur string) completion {
	what, ok := positionalKind[command]
	if !ok || len(line.args) > 0 || IsURL(cur) {
		return completion{kind: "words"}
	}
	return configuredNames(ctx, command, line, cur, what)
}

// discard is an IOStreams that prints nothing: completion shows no
// warnings, server stderr or sign-in prompts.
func discard() *IOStreams {
	return &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard, secrets: &secretSet{}}
}
