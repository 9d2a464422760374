package cli

import (
	"fmt"
	"strings"
)

// shellWords splits a shell line into words the way a POSIX shell quotes,
// and no further: blanks separate words; 'single quotes' keep everything
// as it is; "double quotes" keep everything but a backslash before " or \;
// outside quotes a backslash keeps the next character. Nothing is
// expanded ($, ~, * and # are plain characters), so a value is what was
// typed. An unclosed quote or a trailing backslash is an error naming the
// column where it starts, since running a line cut short could send a
// value the user did not mean.
func shellWords(line string) ([]string, error) {
	var (
		words []string
		word  strings.Builder
		in    bool // a word is open (it may be empty: '')
	)
	end := func() {
		if in {
			words = append(words, word.String())
			word.Reset()
			in = false
		}
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t':
			end()
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("the ' at column %d is not closed", i+1)
			}
			word.WriteString(line[i+1 : i+1+j])
			in, i = true, i+1+j
		case '"':
			start := i
			in = true
			for i++; ; i++ {
				if i >= len(line) {
					return nil, fmt.Errorf("the \" at column %d is not closed", start+1)
				}
				if line[i] == '"' {
					break
				}
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				word.WriteByte(line[i])
			}
		case '\\':
			if i+1 >= len(line) {
				return nil, fmt.Errorf("the \\ at column %d escapes nothing", i+1)
			}
			i++
			word.WriteByte(line[i])
			in = true
		default:
			word.WriteByte(c)
			in = true
		}
	}
	end()
	return words, nil
}
