package config

// JSONC support. VS Code writes .vscode/mcp.json as "JSON with comments":
// // line comments, /* block */ comments and trailing commas. Rather than a
// second parser, stripJSONC blanks those out so encoding/json can read the
// rest. Every removed byte becomes a space (line breaks are kept), so byte
// offsets, and with them the line:col of a later syntax error, are the
// same in the stripped text as in the file the user edits.

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// stripJSONC returns a copy of data, of the same length, with a leading
// UTF-8 byte order mark, comments and trailing commas (a comma whose next
// non-space byte is } or ]) replaced by spaces. Text inside strings is
// never touched. The only error is an unterminated block comment; anything
// else that is not JSON is left for the JSON parser to report.
func stripJSONC(data []byte) ([]byte, error) {
	out := make([]byte, len(data))
	copy(out, data)
	if len(out) >= len(utf8BOM) && string(out[:len(utf8BOM)]) == string(utf8BOM) {
		for i := range utf8BOM {
			out[i] = ' '
		}
	}
	if err := blankComments(out); err != nil {
		return nil, err
	}
	blankTrailingCommas(out)
	return out, nil
}

// blankComments replaces comments in b by spaces, in place.
func blankComments(b []byte) error {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n' && b[i] != '\r'; i++ {
				b[i] = ' '
			}
			i-- // let the loop see the line break
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			start := i
			end := -1
			for j := i + 2; j+1 < len(b); j++ {
				if b[j] == '*' && b[j+1] == '/' {
					end = j + 2
					break
				}
			}
			if end < 0 {
				return &syntaxError{Offset: start, Msg: "unterminated /* comment"}
			}
			for ; i < end; i++ {
				if b[i] != '\n' && b[i] != '\r' {
					b[i] = ' '
				}
			}
			i--
		}
	}
	return nil
}

// blankTrailingCommas replaces, in place, every comma outside a string that
// is followed (after white space only: comments are already blanked) by a
// closing brace or bracket.
func blankTrailingCommas(b []byte) {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ',':
			j := i + 1
			for j < len(b) && isJSONSpace(b[j]) {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				b[i] = ' '
			}
		}
	}
}

func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// syntaxError is a malformed document at a byte offset.
type syntaxError struct {
	Offset int
	Msg    string
}

func (e *syntaxError) Error() string { return e.Msg }
