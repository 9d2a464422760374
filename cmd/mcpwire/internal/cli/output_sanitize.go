package cli

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Sanitize makes text from a server safe to print to a terminal. C0
// control characters other than newline and tab (escape sequences could
// recolour, retitle or rewrite the screen) are shown in caret notation,
// "^[" for ESC. C1 controls (U+0080–U+009F, among them the one-rune CSI
// U+009B), bidirectional overrides and isolates and invisible characters
// (see isInvisible), which could make text read otherwise than it is, are
// shown as \uXXXX (\UXXXXXXXX beyond U+FFFF); a byte that is not UTF-8 (a raw 0x9B is a CSI to some
// terminals) as \xXX. JSON output is never sanitized: it is escaped by
// encoding instead (see escapeForTerminal).
func Sanitize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if utf8.ValidString(s) && !strings.ContainsFunc(s, isUnsafeForTerminal) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case !isUnsafeForTerminal(r):
			b.WriteString(s[i : i+n])
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@')
		case r == 0x7f:
			b.WriteString("^?")
		case r > 0xffff: // tag characters
			fmt.Fprintf(&b, "\\U%08x", r)
		default: // C1 controls, bidirectional and invisible characters
			fmt.Fprintf(&b, "\\u%04x", r)
		}
		i += n
	}
	return b.String()
}

// sanitizeLine is Sanitize for a value that must stay on its line (a
// command in the trust review, a model's name): a newline is shown as ^J
// too, so that the value cannot start a line of its own that passes for
// one of mcpwire's.
func sanitizeLine(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "^J")
}

// sanitizeIndented is Sanitize for text of several lines that follows
// one of mcpwire's labels in a prompt ("user: ..."): every line after the
// first is indented by indent, so that none of them passes for a line of
// mcpwire's own ("Max tokens: ...") however it begins.
func sanitizeIndented(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(Sanitize(s), "\n"), "\n", "\n"+indent)
}

// sanitizeQuoted is sanitizeIndented with the first line indented too:
// for a server's message that stands on its own lines in a prompt, next
// to lines of mcpwire's ("Domain: ...").
func sanitizeQuoted(s, indent string) string {
	return indent + sanitizeIndented(s, indent)
}

// isUnsafeForTerminal reports the runes Sanitize shows escaped: controls
// (but newline and tab) and the characters of isInvisible.
func isUnsafeForTerminal(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isInvisible(r)
}

// isInvisible reports characters that change how text reads without
// showing themselves: the bidirectional embeddings, overrides and
// isolates (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F,
// U+061C), and the zero-width ones (U+200B–U+200D, U+2060–U+2064,
// U+180E, U+FEFF), with which a server could make a name or a command
// look like another. Line and paragraph separators (U+2028, U+2029)
// break lines where a terminal shows none. So do the rest of the format
// characters (Cf: the soft hyphen, interlinear annotations, and the tag
// characters U+E0020–U+E007F, which spell ASCII that no terminal shows,
// a way to hide instructions in a description a person reviews) and the
// other default-ignorable ones (the Hangul fillers that make a name look
// empty). Variation selectors are not among them: U+FE0F picks an emoji's
// colour form and hides nothing.
func isInvisible(r rune) bool {
	if r >= 0xad && unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point) {
		return true
	}
	switch {
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069:
		return true
	}
	switch r {
	case 0x061c, 0x180e, 0x2028, 0x2029, 0xfeff:
		return true
	}
	return false
}

// escapeForTerminal rewrites JSON that mcpwire prints so that the runes
// Sanitize escapes appear as \uXXXX escapes (and a byte that is not
// UTF-8 as \ufffd): encoding/json escapes C0 controls, but leaves DEL, C1
// controls and bidirectional characters as they are, and copies a
// server's raw JSON unchanged, so "jq -r" on a terminal would print them
// raw. Such runes occur only inside JSON strings, where the escape means
// the same, so the output stays valid JSON with the same value.
func escapeForTerminal(b []byte) []byte {
	if utf8.Valid(b) && bytes.IndexFunc(b, isUnsafeJSONRune) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case isUnsafeJSONRune(r) && r > 0xffff: // JSON has only \uXXXX: a surrogate pair
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		case isUnsafeJSONRune(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// isUnsafeJSONRune: the runes escapeForTerminal escapes. C0 controls are
// not among them: in valid JSON they are escaped already, and outside
// strings the newlines and tabs of indentation are JSON's own.
func isUnsafeJSONRune(r rune) bool {
	return r >= 0x20 && isUnsafeForTerminal(r)
}
